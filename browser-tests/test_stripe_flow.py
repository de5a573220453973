"""The wallet on a Plaza that takes real cards through Stripe: Carla tops up by typing her card on Stripe's page (never
on Plaza's), changes her mind once, and connects her bank account on Stripe's page before her first withdrawal."""
from selenium.webdriver.common.by import By

from conftest import screenshot
from test_accounts_flow import navigate, submit, tab
from test_places_flow import log_in, wait_for
from test_second_factor_flow import ENROLLED, answer, recovery_code, second_factor
from test_wallet_flow import action, balance, fill_in, headline


def notice(driver):
    return driver.find_element(By.CSS_SELECTOR, ".notice").text


def test_top_up_on_stripes_page_and_withdraw_to_a_connected_bank(stripe_plaza, browser):
    log_in(browser, stripe_plaza, "carla", "demo-carla-2026")
    tab(browser, "Wallet")
    assert balance(browser) == "$12.50"
    action(browser, "add-money")
    form = browser.find_element(By.ID, "topup-form")
    assert not form.find_elements(By.NAME, "number")  # no card field on Plaza's page
    assert "Test mode" in browser.find_element(By.CSS_SELECTOR, ".test-mode").text
    screenshot(browser, "stripe-add-money")

    fill_in(browser, "topup-form", {"amount": "20"})
    submit(browser, "Continue to payment")
    assert "/pay/cs_test_" in browser.current_url  # Stripe's page (the stand-in's)
    browser.find_element(By.NAME, "card").send_keys("4000 0000 0000 0002")
    submit(browser, "Pay")
    assert "declined" in browser.page_source
    browser.find_element(By.NAME, "card").send_keys("4242 4242 4242 4242")
    submit(browser, "Pay")
    assert browser.current_url.startswith(stripe_plaza + "/wallet/activity/")
    assert "Payment done" in notice(browser)
    wait_for(browser, lambda: headline(browser) == "Added $20.00 to your balance ✓", explain=lambda: headline(browser))
    tab(browser, "Wallet")
    assert balance(browser) == "$32.50"

    # Second thoughts on Stripe's page: "Back" calls the top-up off.
    action(browser, "add-money")
    fill_in(browser, "topup-form", {"amount": "7"})
    submit(browser, "Continue to payment")
    navigate(browser, browser.find_element(By.LINK_TEXT, "Back"))
    assert notice(browser) == "Top-up cancelled: nothing was charged."
    assert "You cancelled on the payment page." in headline(browser)

    # The first withdrawal: connect a bank account on Stripe's page (with a second factor), then withdraw.
    ENROLLED.pop((stripe_plaza, "carla"), None)  # a fresh Plaza each test
    second_factor(browser, stripe_plaza, "carla")
    tab(browser, "Wallet")
    action(browser, "withdraw")
    assert not browser.find_elements(By.ID, "withdraw-form")
    screenshot(browser, "stripe-connect-bank")
    submit(browser, "Connect a bank account")
    answer(browser, recovery_code(stripe_plaza, "carla"), "Connect a bank account")
    assert "/connect/acct_" in browser.current_url
    browser.find_element(By.NAME, "iban").send_keys("DE89370400440532013000")
    submit(browser, "Submit")
    assert "Bank account connected" in notice(browser)
    fill_in(browser, "withdraw-form", {"amount": "10"})
    submit(browser, "Withdraw")
    answer(browser, recovery_code(stripe_plaza, "carla"), "Withdraw")
    wait_for(browser, lambda: "$10.00" in headline(browser), explain=lambda: headline(browser))
    screenshot(browser, "stripe-withdrawn")
    tab(browser, "Wallet")
    assert balance(browser) == "$22.50"
