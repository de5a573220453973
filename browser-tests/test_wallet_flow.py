"""The wallet as people use it: Carla tops up with a test card, sends money to Anna, stands in Bruno's Bakery and
approves the charge Bruno pushes from his counter, on her phone, while his counter page updates by itself."""
from selenium.webdriver.common.by import By

from conftest import new_browser, screenshot
from test_accounts_flow import fill, navigate, submit
from test_places_flow import BAKERY, log_in, place, sent, share_status, wait_for


def fill_in(driver, form, fields):
    """Types into the fields of one form (the wallet page has two `amount` fields)."""
    for name, value in fields.items():
        element = driver.find_element(By.CSS_SELECTOR, f"#{form} [name={name}]")
        element.clear()
        element.send_keys(value)


def balance(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-balance]").text


def pending(driver):
    return [article.get_attribute("data-charge") for article in driver.find_elements(By.CSS_SELECTOR, "#charges article.charge")]


def counter_status(driver, charge):
    tags = driver.find_elements(By.CSS_SELECTOR, f"#counter li[data-charge='{charge}'] [data-status]")
    return tags[0].text if tags else None


def inbox(driver):
    return driver.find_element(By.CSS_SELECTOR, "ul.inbox").text


def test_top_up_send_and_approve_the_shops_charge_live(plaza):
    merchant = new_browser("desktop")
    customer = new_browser("phone")
    try:
        log_in(customer, plaza, "carla", "demo-carla-2026")
        customer.get(plaza + "/wallet")
        assert balance(customer) == "12.50 USD"  # Anna's pizza money, from the demo
        fill_in(customer, "topup-form", {"amount": "20", "number": "4242 4242 4242 4242", "expiry": "12/34", "cvc": "123"})
        submit(customer, "Top up")
        assert "Top-up started" in customer.find_element(By.CSS_SELECTOR, ".notice").text
        # The sandbox processor's webhook arrives over HTTP within moments.
        wait_for(customer, lambda: customer.refresh() or balance(customer) == "32.50 USD", explain=lambda: balance(customer))
        fill_in(customer, "send-form", {"to": "anna", "amount": "5.00", "note": "Coffee"})
        submit(customer, "Send")
        assert balance(customer) == "27.50 USD"
        history = customer.find_element(By.CSS_SELECTOR, ".activity").text
        assert "To · " not in history and "Anna Customer (@anna)" in history and "-5.00 USD" in history
        screenshot(customer, "wallet")

        # She walks into the bakery, sharing her presence with shops.
        customer.get(plaza + "/places/settings")
        customer.find_element(By.CSS_SELECTOR, "input[name=level][value=merchants]").click()
        submit(customer, "Save")
        place(customer, plaza, *BAKERY)
        customer.find_element(By.CSS_SELECTOR, "[data-share-toggle]").click()
        wait_for(customer, lambda: sent(customer) == 1, explain=lambda: share_status(customer))
        customer.get(plaza + "/wallet/charges")
        wait_for(customer, lambda: customer.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
        assert pending(customer) == []

        log_in(merchant, plaza, "bruno", "demo-bruno-2026")
        merchant.get(plaza + "/places/mine")
        navigate(merchant, merchant.find_elements(By.LINK_TEXT, "Counter")[0])
        wait_for(merchant, lambda: merchant.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
        wait_for(merchant, lambda: merchant.find_elements(By.CSS_SELECTOR, "#counter [data-pick='carla']"))
        merchant.find_element(By.CSS_SELECTOR, "#counter [data-pick='carla']").click()
        fill_in(merchant, "charge-form", {"amount": "3.50", "description": "Pretzel and coffee"})
        merchant.find_element(By.XPATH, "//button[normalize-space()='Ask to pay']").click()

        # The charge appears on her phone without a reload, with what it is for.
        wait_for(customer, lambda: len(pending(customer)) == 1, explain=lambda: customer.find_element(By.ID, "charges").text)
        charge = pending(customer)[0]
        text = customer.find_element(By.CSS_SELECTOR, "#charges article.charge").text
        assert "Bruno's Bakery" in text and "3.50 USD" in text and "Pretzel and coffee" in text
        wait_for(merchant, lambda: counter_status(merchant, charge) == "pending")
        screenshot(customer, "wallet-charges")
        customer.find_element(By.CSS_SELECTOR, "[data-approve]").click()
        wait_for(customer, lambda: pending(customer) == [])
        wait_for(merchant, lambda: counter_status(merchant, charge) == "approved", explain=lambda: merchant.find_element(By.ID, "counter").text)
        screenshot(merchant, "wallet-counter")

        customer.get(plaza + "/wallet")
        assert balance(customer) == "24.00 USD"
        navigate(customer, customer.find_element(By.LINK_TEXT, "Receipt"))
        receipt = customer.find_element(By.CSS_SELECTOR, ".receipt").text
        assert "Bruno's Bakery" in receipt and "Pretzel and coffee" in receipt and "3.50 USD" in receipt
        screenshot(customer, "wallet-receipt")
        # Her inbox shows the bakery's charge, paid now, with what arrived before; all seen once she says so.
        customer.get(plaza + "/inbox")
        wait_for(customer, lambda: customer.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
        wait_for(customer, lambda: "You paid Bruno's Bakery 3.50 USD." in inbox(customer), explain=lambda: inbox(customer))
        assert customer.find_elements(By.CSS_SELECTOR, ".entry.unread")
        screenshot(customer, "inbox")
        submit(customer, "Mark all as seen")
        wait_for(customer, lambda: "3.50 USD" in inbox(customer) and not customer.find_elements(By.CSS_SELECTOR, ".entry.unread"))
        # Bruno's tells him she paid, should he have stepped away from the counter.
        merchant.get(plaza + "/inbox")
        wait_for(merchant, lambda: "paid 3.50 USD to Bruno's Bakery." in inbox(merchant), explain=lambda: inbox(merchant))
        # Sharing off again, so other tests find the bakery as they expect it.
        customer.get(plaza + "/places/settings")
        customer.find_element(By.CSS_SELECTOR, "input[name=level][value=off]").click()
        submit(customer, "Save")
    finally:
        merchant.quit()
        customer.quit()


def test_wallet_forms_name_each_mistake_and_a_declined_card_fails(plaza, browser):
    log_in(browser, plaza, "anna", "demo-anna-2026")
    browser.get(plaza + "/wallet")
    fill_in(browser, "topup-form", {"amount": "abc", "number": "1234", "expiry": "13/20", "cvc": "1"})
    submit(browser, "Top up")
    errors = " ".join(element.text for element in browser.find_elements(By.CSS_SELECTOR, ".field-error"))
    assert "12.50" in errors
    fill_in(browser, "topup-form", {"amount": "5", "number": "4242 4242 4242 4241", "expiry": "13/20", "cvc": "1"})
    submit(browser, "Top up")
    errors = " ".join(element.text for element in browser.find_elements(By.CSS_SELECTOR, ".field-error"))
    assert "not a valid card number" in errors and "1 to 12" in errors and "3 or 4 digits" in errors
    screenshot(browser, "wallet-errors")
    fill_in(browser, "send-form", {"to": "anna", "amount": "1"})
    submit(browser, "Send")
    assert "cannot send money to yourself" in browser.find_element(By.ID, "send-form").text
    before = balance(browser)
    fill_in(browser, "topup-form", {"amount": "5", "number": "4000 0000 0000 0002", "expiry": "12/34", "cvc": "123"})
    submit(browser, "Top up")
    wait_for(browser, lambda: browser.refresh() or "failed" in browser.find_element(By.CSS_SELECTOR, ".activity").text)
    assert balance(browser) == before
    # A declined card reads as failed, with the reason, and no "+" as if money had come.
    failed = next(li for li in browser.find_elements(By.CSS_SELECTOR, ".activity li") if "Top-up failed" in li.text)
    assert "Your card was declined." in failed.text
    amount = failed.find_element(By.CSS_SELECTOR, ".amount")
    assert amount.text == "5.00 USD" and "failed" in amount.get_attribute("class")
    assert "Test mode" in browser.find_element(By.CSS_SELECTOR, ".test-mode").text
    # Money out: withdraw 1.00 to the bank; the balance drops at once and the page says what happens next.
    cents = lambda text: int(round(float(text.split()[0].replace(",", "")) * 100))
    fill_in(browser, "withdraw-form", {"amount": "1.00"})
    submit(browser, "Withdraw")
    assert "Withdrawal started" in browser.find_element(By.CSS_SELECTOR, ".notice").text
    assert cents(balance(browser)) == cents(before) - 100
    navigate(browser, browser.find_element(By.XPATH, "//button[normalize-space()='Show a pay code']"))
    code = browser.find_element(By.CSS_SELECTOR, "[data-paycode]").text.replace("Your pay code:", "").strip()
    assert len(code.replace(" ", "")) == 8
    qr = browser.find_element(By.CSS_SELECTOR, "[data-paycode-qr] svg")
    assert qr.size["width"] >= 150 and qr.find_element(By.TAG_NAME, "path").get_attribute("d").startswith("M")
    screenshot(browser, "wallet-paycode")
