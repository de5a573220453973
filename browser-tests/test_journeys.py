"""Journeys a newcomer takes without being told a URL: a merchant signs up, verifies from the mail's link and sets up a
first business through the wizard; a customer places a private zone by searching its address."""
import re
import uuid

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from conftest import latest_mail, screenshot
from test_accounts_flow import PASSWORD, click, fill, navigate, notice, submit, tab
from test_places_flow import log_in, wait_for
from test_wallet_flow import fill_in


def test_a_new_merchant_is_walked_into_a_first_business_and_approved(plaza, browser):
    name = "m" + uuid.uuid4().hex[:10]
    email = f"{name}@example.com"
    shop = f"Mona's Deli {name[-4:]}"
    browser.get(plaza + "/")
    navigate(browser, browser.find_element(By.LINK_TEXT, "Create an account"))
    fill(browser, {"email": email, "username": name, "displayName": "Mona Pane", "password": PASSWORD})
    click(browser, browser.find_element(By.CSS_SELECTOR, "input[name=role][value=merchant]"))
    submit(browser, "Sign up")
    # The demo sends no mail: the page says where to read it.
    assert browser.find_element(By.LINK_TEXT, "dev mailbox")

    # The mail's link carries the code: one tap on its page verifies and signs this browser in.
    link = re.search(r"https?://\S+/verify-email\?\S+", latest_mail(plaza, email)).group(0)
    browser.get(link)
    submit(browser, "Verify")
    assert browser.current_url.endswith("/places/new")
    screenshot(browser, "wizard-1")

    fill_in(browser, "wizard", {"name": shop, "description": "Sandwiches and soup"})
    click(browser, browser.find_element(By.CSS_SELECTOR, ".step.current [data-next]"))
    fill_in(browser, "wizard", {"address": "Tal 20, 80331 München"})
    # Tap the map where the entrance is.
    area = browser.find_element(By.CSS_SELECTOR, ".step.current .plaza-map")
    wait_for(browser, lambda: area.get_attribute("data-ready") == "1")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", area)
    ActionChains(browser).move_to_element_with_offset(area, 20, 10).click().perform()
    wait_for(browser, lambda: area.get_attribute("data-picked"), explain=lambda: "no point picked")
    screenshot(browser, "wizard-2")
    click(browser, browser.find_element(By.CSS_SELECTOR, ".step.current [data-next]"))
    saturday = browser.find_element(By.ID, "closes-5")
    assert saturday.get_attribute("value") == "14:00"
    screenshot(browser, "wizard-3")
    submit(browser, "Create my business")

    # Saved, but not public until an admin approves the new merchant: the pages say so.
    assert "An admin looks at it next" in notice(browser)
    assert browser.find_element(By.TAG_NAME, "h1").text == shop
    assert "An admin reviews new merchants" in browser.find_element(By.CSS_SELECTOR, "[data-approval-banner]").text
    screenshot(browser, "wizard-done")
    navigate(browser, browser.find_element(By.LINK_TEXT, "Public page"))
    assert "Tal 20, 80331 München" in browser.find_element(By.TAG_NAME, "main").text
    tab(browser, "Home")
    assert shop in browser.find_element(By.ID, "business-heading").find_element(By.XPATH, "..").text
    assert browser.find_element(By.CSS_SELECTOR, "[data-approval-banner]")
    screenshot(browser, "merchant-waiting")
    tab(browser, "Account")
    submit(browser, "Log out")
    browser.get(plaza + "/places?q=" + name[-4:])
    assert shop not in browser.find_element(By.TAG_NAME, "main").text

    # The admin finds the merchant in the review queue from the navigation, claims the item and approves it.
    log_in(browser, plaza, "admin", "demo-admin-2026")
    navigate(browser, next(link for link in browser.find_elements(By.LINK_TEXT, "Admin") if link.is_displayed()))
    item = next(row for row in browser.find_elements(By.CSS_SELECTOR, "[data-review-item]") if f"@{name}" in row.text)
    assert shop in item.text and "Tal 20" in item.text
    screenshot(browser, "admin-queue")
    navigate(browser, item.find_element(By.TAG_NAME, "a"))
    submit(browser, "Review this")
    assert "yours to decide" in notice(browser)
    screenshot(browser, "admin-review")
    submit(browser, "Approve")
    assert f"You approved Mona Pane (@{name})" in notice(browser)
    assert "Approved by admin" in browser.find_element(By.CSS_SELECTOR, "[data-decision]").text
    navigate(browser, browser.find_element(By.LINK_TEXT, "← Review queue"))
    navigate(browser, browser.find_element(By.LINK_TEXT, "Audit log"))
    entry = browser.find_elements(By.CSS_SELECTOR, "[data-audit-entry]")[0]
    assert "Approved" in entry.text and f"@{name}" in entry.text and "by admin" in entry.text
    screenshot(browser, "admin-audit")
    tab(browser, "Account")
    submit(browser, "Log out")

    # Now anyone finds the business.
    browser.get(plaza + "/places?q=" + name[-4:])
    assert shop in browser.find_element(By.TAG_NAME, "main").text


def test_a_zone_is_placed_by_searching_its_address(plaza, browser):
    log_in(browser, plaza, "carla", "demo-carla-2026")
    tab(browser, "Places")
    navigate(browser, browser.find_element(By.LINK_TEXT, "Location settings"))
    search = browser.find_element(By.CSS_SELECTOR, "[data-address-search]")
    search.send_keys("Sendlinger")
    click(browser, browser.find_element(By.XPATH, "//div[@class='pm-search']//button[normalize-space()='Search']"))
    wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "[data-address-result]"))
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-address-result]"))
    wait_for(browser, lambda: browser.find_element(By.ID, "zone-latitude").get_attribute("value") == "48.135200")
    assert browser.find_element(By.ID, "zone-longitude").get_attribute("value") == "11.571200"
    screenshot(browser, "places-zone-search")
    fill(browser, {"name": f"Gym {browser.size_name}"})
    submit(browser, "Add zone")
    assert "private zone was saved" in notice(browser)
    assert f"Gym {browser.size_name}" in browser.find_element(By.ID, "zones").text
