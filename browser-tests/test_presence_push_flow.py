"""A merchant turns on the push for a regular walking in ("When a customer you know walks in"), from the notification
settings reached through the Account tab, at a phone's and a desktop's width. The push itself (FCM, Web Push, APNs)
is asserted in the Swift tests (PresencePushTests); a customer who works nowhere is not offered the choice."""
from selenium.webdriver.common.by import By

from conftest import new_browser, screenshot
from test_accounts_flow import navigate, notice, tab
from test_places_flow import log_in

LABEL = "When a customer you know walks in"


def open_settings(driver):
    tab(driver, "Account")
    navigate(driver, driver.find_element(By.LINK_TEXT, "Choose notifications and devices"))
    assert driver.find_element(By.TAG_NAME, "h1").text == "Notifications"


def presence_box(driver):
    return driver.find_element(By.CSS_SELECTOR, "input[name='push-presence']")


def test_staff_turn_on_the_push_for_a_customer_they_know(plaza, browser):
    log_in(browser, plaza, "bruno", "demo-bruno-2026")
    open_settings(browser)
    row = browser.find_element(By.XPATH, f"//tr[th[contains(normalize-space(), '{LABEL}')]]")
    assert "At most once per customer every 3 hours" in row.text
    box = presence_box(browser)
    assert not box.is_selected(), "off until the merchant turns it on"
    # The box's label names it for screen readers.
    assert row.find_element(By.CSS_SELECTOR, ".visually-hidden").get_attribute("textContent") == f"{LABEL} by push"
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    box.click()
    navigate(browser, browser.find_element(By.XPATH, "//button[normalize-space()='Save']"))
    assert "Your notification choices were saved." in notice(browser)
    assert presence_box(browser).is_selected()
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", presence_box(browser))
    screenshot(browser, "presence-push-on")

    # Off again: the demo is shared by the tests that follow (and by the other width).
    presence_box(browser).click()
    navigate(browser, browser.find_element(By.XPATH, "//button[normalize-space()='Save']"))
    assert not presence_box(browser).is_selected()


def test_a_customer_who_works_nowhere_is_not_offered_it(plaza):
    customer = new_browser("phone")
    try:
        log_in(customer, plaza, "anna", "demo-anna-2026")
        open_settings(customer)
        assert customer.find_elements(By.CSS_SELECTOR, "input[name='push-presence']") == []
        assert LABEL not in customer.find_element(By.TAG_NAME, "main").text
    finally:
        customer.quit()
