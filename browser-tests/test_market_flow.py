"""The campus marketplace, joining: from the home screen a student proves their university address with the mailed
code, reads and signs the agreement, and lands on their campus with its safe spots."""
from selenium.webdriver.common.by import By

from conftest import latest_code, screenshot
from test_accounts_flow import fill, navigate, notice, submit
from test_places_flow import log_in

# One demo account per width: joining happens once per account.
STUDENTS = {"phone": ("carla", "demo-carla-2026"), "desktop": ("dora", "demo-dora-2026")}


def test_a_student_joins_the_campus_marketplace(plaza, browser):
    username, password = STUDENTS[browser.size_name]
    log_in(browser, plaza, username, password)
    card = browser.find_element(By.CSS_SELECTOR, "[data-home-market]")
    assert "Join with your university e-mail" in card.text
    navigate(browser, card.find_element(By.LINK_TEXT, "Join with your university e-mail"))
    assert "Isar University" in browser.find_element(By.CSS_SELECTOR, "[data-campuses]").text

    # A personal address is refused beside the field; the university one gets a code.
    fill(browser, {"email": f"{username}@example.com"})
    submit(browser, "Send the code")
    assert "university address" in browser.find_element(By.ID, "campus-email-error").text
    email = f"{username}@isar-uni.edu"
    fill(browser, {"email": email})
    screenshot(browser, "market-join")
    submit(browser, "Send the code")
    assert email in browser.find_element(By.TAG_NAME, "main").text
    fill(browser, {"code": "000000" if latest_code(plaza, email) != "000000" else "111111"})
    submit(browser, "Verify")
    assert "wrong" in browser.find_element(By.ID, "campus-code-error").text
    fill(browser, {"code": latest_code(plaza, email)})
    submit(browser, "Verify")

    # The agreement, then the campus.
    assert "verified" in notice(browser)
    assert "safe spot" in browser.find_element(By.CSS_SELECTOR, "section.agreement").text
    screenshot(browser, "market-agreement")
    submit(browser, "I agree")
    assert "Welcome" in notice(browser)
    assert "Isar University" in browser.find_element(By.CSS_SELECTOR, "[data-market-member]").text
    assert "Main library lobby" in browser.find_element(By.CSS_SELECTOR, "[data-safe-spots]").text
    screenshot(browser, "market-home")
    browser.get(plaza + "/")
    assert "Join" not in browser.find_element(By.CSS_SELECTOR, "[data-home-market]").text
