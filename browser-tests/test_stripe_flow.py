"""The wallet on a Plaza that takes real cards through Stripe: Carla tops up by typing her card on Stripe's page (never
on Plaza's), changes her mind once, and connects her bank account on Stripe's page before her first withdrawal."""
from selenium.webdriver.common.by import By

from conftest import screenshot
from test_accounts_flow import navigate, submit
from test_places_flow import log_in, wait_for
from test_wallet_flow import balance, fill_in


def notice(driver):
    return driver.find_element(By.CSS_SELECTOR, ".notice").text


def test_top_up_on_stripes_page_and_withdraw_to_a_connected_bank(stripe_plaza, browser):
    log_in(browser, stripe_plaza, "carla", "demo-carla-2026")
    navigate(browser, browser.find_element(By.LINK_TEXT, "Wallet"))
    assert balance(browser) == "12.50 USD"
    form = browser.find_element(By.ID, "topup-form")
    assert not form.find_elements(By.NAME, "number")  # no card field on Plaza's page
    assert "Test mode" in browser.find_element(By.CSS_SELECTOR, ".test-mode").text
    browser.execute_script("document.getElementById('topup-heading').scrollIntoView()")
    screenshot(browser, "stripe-wallet")

    fill_in(browser, "topup-form", {"amount": "20"})
    submit(browser, "Continue to payment")
    assert "/pay/cs_test_" in browser.current_url  # Stripe's page (the stand-in's)
    browser.find_element(By.NAME, "card").send_keys("4000 0000 0000 0002")
    submit(browser, "Pay")
    assert "declined" in browser.page_source
    browser.find_element(By.NAME, "card").send_keys("4242 4242 4242 4242")
    submit(browser, "Pay")
    assert browser.current_url.startswith(stripe_plaza + "/wallet")
    assert "Payment done" in notice(browser)
    wait_for(browser, lambda: browser.refresh() or balance(browser) == "32.50 USD", explain=lambda: balance(browser))

    # Second thoughts on Stripe's page: "Back" calls the top-up off.
    fill_in(browser, "topup-form", {"amount": "7"})
    submit(browser, "Continue to payment")
    navigate(browser, browser.find_element(By.LINK_TEXT, "Back"))
    assert notice(browser) == "Top-up cancelled: nothing was charged."
    assert "You cancelled on the payment page." in browser.find_element(By.CSS_SELECTOR, ".activity").text

    # The first withdrawal: connect a bank account on Stripe's page, then withdraw.
    assert not browser.find_elements(By.ID, "withdraw-form")
    browser.execute_script("document.getElementById('withdraw-heading').scrollIntoView()")
    screenshot(browser, "stripe-connect-bank")
    submit(browser, "Connect a bank account")
    assert "/connect/acct_" in browser.current_url
    browser.find_element(By.NAME, "iban").send_keys("DE89370400440532013000")
    submit(browser, "Submit")
    assert "Bank account connected" in notice(browser)
    fill_in(browser, "withdraw-form", {"amount": "10"})
    submit(browser, "Withdraw")
    assert "Withdrawal started" in notice(browser)
    wait_for(browser, lambda: browser.refresh() or balance(browser) == "22.50 USD", explain=lambda: balance(browser))
    browser.execute_script("document.getElementById('withdraw-heading').scrollIntoView()")
    screenshot(browser, "stripe-withdrawn")
