"""Paying by type-ahead (issue 39: "@car" suggested nobody): Anna types the start of Carla's name in the pay form, picks
her from the list with the keyboard alone, and reviews the payment. Then the wallet shows the requests she sent."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import screenshot
from test_accounts_flow import navigate, submit
from test_places_flow import log_in, wait_for
from test_wallet_flow import action, fill_in


def options(driver):
    return [option.text for option in driver.find_elements(By.CSS_SELECTOR, "#to-options [role=option]")]


def test_typing_the_start_of_a_name_suggests_the_friend_and_the_keyboard_picks_them(plaza, browser):
    log_in(browser, plaza, "anna", "demo-anna-2026")
    action(browser, "pay")
    field = browser.find_element(By.ID, "to")
    assert field.get_attribute("role") == "combobox" and field.get_attribute("aria-expanded") == "false"
    field.send_keys("@car")
    wait_for(browser, lambda: any("Carla" in text and "@carla" in text for text in options(browser)),
             explain=lambda: repr(options(browser)))
    assert field.get_attribute("aria-expanded") == "true"
    screenshot(browser, "wallet-pay-typeahead")
    field.send_keys(Keys.ARROW_DOWN)
    active = field.get_attribute("aria-activedescendant")
    assert active and browser.find_element(By.ID, active).get_attribute("aria-selected") == "true"
    field.send_keys(Keys.ENTER)
    assert field.get_attribute("value") == "@carla" and field.get_attribute("aria-expanded") == "false"
    fill_in(browser, "send-form", {"amount": "1.00"})
    submit(browser, "Review")
    assert "@carla" in browser.find_element(By.CSS_SELECTOR, ".confirm").text

    # A request she sends shows on the wallet beside her history, waiting, and can be called off there.
    action_link = plaza + "/wallet/request"
    browser.get(action_link)
    fill_in(browser, "request-form", {"to": "@carla", "amount": "2.50", "note": "Bus fare"})
    submit(browser, "Request")
    browser.get(plaza + "/wallet")
    row = browser.find_element(By.CSS_SELECTOR, "#sent-requests [data-request]")
    assert "Carla" in row.text and "waiting" in row.text and "$2.50" in row.text
    screenshot(browser, "wallet-sent-requests")
    submit(browser, "Call off")
    assert "Request called off" in browser.find_element(By.CSS_SELECTOR, ".notice").text
    assert "called off" in browser.find_element(By.CSS_SELECTOR, "#sent-requests [data-request]").text
