"""The wallet as people use it, by clicking: Carla adds money with a test card, pays Anna after the confirmation,
shares from the wallet page while she walks into Bruno's Bakery, and approves the charge Bruno pushes from his
counter, on her phone, while his counter page updates by itself. Then a friend's request, and every mistake."""
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

from conftest import new_browser, screenshot, settled
from test_accounts_flow import click, navigate, submit, tab
from test_places_flow import BAKERY, log_in, place, wait_for
from test_second_factor_flow import answer, recovery_code, second_factor


def fill_in(driver, form, fields):
    """Types into the fields of one form. A live region may draw the form again just as the page settles (the deal card
    of a conversation does): then the field is found again and typed into, as a person would."""
    for name, value in fields.items():
        for attempt in range(3):
            try:
                element = driver.find_element(By.CSS_SELECTOR, f"#{form} [name={name}]")
                element.clear()
                element.send_keys(value)
                break
            except StaleElementReferenceException:
                if attempt == 2:
                    raise


def balance(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-balance]").text


def action(driver, name):
    """One of the wallet's actions on top (Pay, Request, Add money, Withdraw)."""
    navigate(driver, driver.find_element(By.CSS_SELECTOR, f".quick-actions [data-action='{name}']"))


def headline(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-headline]").text


def pending(driver):
    return settled(lambda: [article.get_attribute("data-charge")
                            for article in driver.find_elements(By.CSS_SELECTOR, "#charges article.charge")])


def counter_status(driver, charge):
    tags = driver.find_elements(By.CSS_SELECTOR, f"#counter li[data-charge='{charge}'] [data-status]")
    return tags[0].text if tags else None


def badge(driver, name):
    badges = driver.find_elements(By.CSS_SELECTOR, f"[data-badge={name}]")
    return badges[0].text if badges else ""


def follow_live(driver, text):
    """Follows a link inside a live region, once the page is live (the region reloads when the socket connects)."""
    wait_for(driver, lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
    for _ in range(20):
        try:
            return navigate(driver, driver.find_element(By.LINK_TEXT, text))
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"the link {text} kept changing")


def inbox(driver):
    return driver.find_element(By.CSS_SELECTOR, "ul.inbox").text


def test_add_money_pay_a_friend_and_approve_the_shops_charge_live(plaza):
    merchant = new_browser("desktop")
    customer = new_browser("phone")
    try:
        log_in(customer, plaza, "carla", "demo-carla-2026")
        tab(customer, "Wallet")
        assert balance(customer) == "$12.50"  # Anna's pizza money, from the demo
        action(customer, "add-money")
        fill_in(customer, "topup-form", {"amount": "20", "number": "4242 4242 4242 4242", "expiry": "1234", "cvc": "123"})
        screenshot(customer, "wallet-add-money")
        submit(customer, "Add money")
        # The top-up's own page follows the card's bank live: no reload.
        wait_for(customer, lambda: headline(customer) == "Added $20.00 to your balance ✓", explain=lambda: headline(customer))
        screenshot(customer, "wallet-top-up-done")
        tab(customer, "Wallet")
        assert balance(customer) == "$32.50"

        # Pay Anna by her handle; nothing moves before the confirmation that shows who she is.
        action(customer, "pay")
        fill_in(customer, "send-form", {"to": "@anna", "amount": "5.00", "note": "Coffee"})
        submit(customer, "Review")
        confirm = customer.find_element(By.CSS_SELECTOR, ".confirm").text
        assert "Anna Customer" in confirm and "@anna" in confirm and "$5.00" in confirm and "Coffee" in confirm
        screenshot(customer, "wallet-pay-confirm")
        submit(customer, "Send $5.00")
        assert headline(customer) == "You sent $5.00 to Anna C. ✓"
        screenshot(customer, "wallet-paid")
        navigate(customer, customer.find_element(By.LINK_TEXT, "Done"))
        assert balance(customer) == "$27.50"
        history = customer.find_element(By.CSS_SELECTOR, ".activity").text
        assert "To Anna Customer" in history and "-$5.00" in history and "Coffee" in history
        screenshot(customer, "wallet")

        # She turns sharing on once, then keeps the wallet open while she walks into the bakery.
        tab(customer, "Places")
        navigate(customer, customer.find_element(By.LINK_TEXT, "Location settings"))
        click(customer, customer.find_element(By.CSS_SELECTOR, "input[name=level][value=merchants]"))
        submit(customer, "Save")
        place(customer, plaza, *BAKERY)
        click(customer, customer.find_element(By.CSS_SELECTOR, "[data-share-toggle]"))
        tab(customer, "Wallet")
        assert customer.find_element(By.CSS_SELECTOR, "[data-sharing-indicator]").is_displayed()
        wait_for(customer, lambda: int(customer.find_element(By.TAG_NAME, "body").get_attribute("data-sent") or 0) >= 1)
        screenshot(customer, "wallet-sharing")

        log_in(merchant, plaza, "bruno", "demo-bruno-2026")
        navigate(merchant, merchant.find_element(By.LINK_TEXT, "My business"))
        navigate(merchant, merchant.find_elements(By.LINK_TEXT, "Counter")[0])
        wait_for(merchant, lambda: merchant.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
        wait_for(merchant, lambda: merchant.find_elements(By.CSS_SELECTOR, "#counter-people [data-pick='carla']"), explain=lambda: merchant.find_element(By.ID, "counter").text)
        click(merchant, merchant.find_element(By.CSS_SELECTOR, "#counter-people [data-pick='carla']"))
        fill_in(merchant, "charge-form", {"amount": "3.50", "description": "Pretzel and coffee"})
        click(merchant, merchant.find_element(By.XPATH, "//button[normalize-space()='Ask to pay']"))

        # Her wallet tab counts it live; the home screen leads her to it.
        wait_for(customer, lambda: badge(customer, "charges") == "1", explain=lambda: badge(customer, "charges"))
        tab(customer, "Home")
        follow_live(customer, "Review and pay")
        wait_for(customer, lambda: len(pending(customer)) == 1, explain=lambda: customer.find_element(By.ID, "charges").text)
        charge = pending(customer)[0]
        text = settled(lambda: customer.find_element(By.CSS_SELECTOR, "#charges article.charge").text)
        assert "Bruno's Bakery" in text and "$3.50" in text and "Pretzel and coffee" in text and "1 ×" not in text
        wait_for(merchant, lambda: counter_status(merchant, charge) == "pending")
        screenshot(customer, "wallet-charges")
        settled(lambda: click(customer, customer.find_element(By.CSS_SELECTOR, "[data-approve]")))
        wait_for(customer, lambda: customer.find_element(By.CSS_SELECTOR, "[data-async-done]").text == "Paid Bruno's Bakery $3.50 ✓")
        wait_for(customer, lambda: pending(customer) == [])
        screenshot(customer, "wallet-charge-paid")
        wait_for(merchant, lambda: counter_status(merchant, charge) == "approved", explain=lambda: merchant.find_element(By.ID, "counter").text)
        screenshot(merchant, "wallet-counter")

        tab(customer, "Wallet")
        assert balance(customer) == "$24.00"
        navigate(customer, customer.find_element(By.PARTIAL_LINK_TEXT, "Paid Bruno's Bakery"))
        screenshot(customer, "wallet-movement")
        navigate(customer, customer.find_element(By.LINK_TEXT, "Receipt"))
        receipt = customer.find_element(By.CSS_SELECTOR, ".receipt").text
        assert "Bruno's Bakery" in receipt and "Pretzel and coffee" in receipt and "$3.50" in receipt
        screenshot(customer, "wallet-receipt")
        # Her inbox shows the bakery's charge, paid now; all seen once she says so.
        tab(customer, "Inbox")
        wait_for(customer, lambda: "You paid Bruno's Bakery $3.50." in inbox(customer), explain=lambda: inbox(customer))
        assert customer.find_elements(By.CSS_SELECTOR, ".entry.unread")
        screenshot(customer, "inbox")
        submit(customer, "Mark all as seen")
        wait_for(customer, lambda: "$3.50" in inbox(customer) and not customer.find_elements(By.CSS_SELECTOR, ".entry.unread"))
        tab(merchant, "Inbox")
        wait_for(merchant, lambda: "paid $3.50 to Bruno's Bakery." in inbox(merchant), explain=lambda: inbox(merchant))
        # Sharing stops from the top bar, and goes off again, so other tests find the bakery as they expect it.
        click(customer, customer.find_element(By.CSS_SELECTOR, "[data-sharing-stop]"))
        assert not customer.find_element(By.CSS_SELECTOR, "[data-sharing-indicator]").is_displayed()
        customer.get(plaza + "/places/settings")
        click(customer, customer.find_element(By.CSS_SELECTOR, "input[name=level][value=off]"))
        submit(customer, "Save")
    finally:
        merchant.quit()
        customer.quit()


def test_a_friend_asks_and_is_paid(plaza):
    asker = new_browser("desktop")
    payer = new_browser("phone")
    try:
        log_in(asker, plaza, "carla", "demo-carla-2026")
        action(asker, "request")
        fill_in(asker, "request-form", {"to": "@anna", "amount": "4", "note": "Cinema tickets"})
        submit(asker, "Request")
        assert "You asked Anna C. for $4.00." in asker.find_element(By.CSS_SELECTOR, ".notice").text
        assert "waiting" in asker.find_element(By.CSS_SELECTOR, "[data-request] [data-status]").text
        screenshot(asker, "wallet-request")

        log_in(payer, plaza, "anna", "demo-anna-2026")
        wait_for(payer, lambda: "1 payment to answer" in payer.find_element(By.ID, "home-live").text)
        screenshot(payer, "home-request-waiting")
        follow_live(payer, "Review and pay")
        wait_for(payer, lambda: len(pending(payer)) == 1)
        text = settled(lambda: payer.find_element(By.CSS_SELECTOR, "#charges article.charge").text)
        assert "Carla Friend" in text and "$4.00" in text and "Cinema tickets" in text
        settled(lambda: click(payer, payer.find_element(By.CSS_SELECTOR, "[data-approve]")))
        wait_for(payer, lambda: payer.find_element(By.CSS_SELECTOR, "[data-async-done]").text == "Paid Carla Friend $4.00 ✓")

        asker.refresh()
        wait_for(asker, lambda: "paid" in asker.find_element(By.CSS_SELECTOR, "[data-request] [data-status]").text)
        tab(asker, "Wallet")
        assert "From Anna Customer" in asker.find_element(By.CSS_SELECTOR, ".activity").text
    finally:
        asker.quit()
        payer.quit()


def test_wallet_forms_name_each_mistake_and_a_declined_card_fails(plaza, browser):
    log_in(browser, plaza, "anna", "demo-anna-2026")
    tab(browser, "Wallet")
    before = balance(browser)
    action(browser, "add-money")
    fill_in(browser, "topup-form", {"amount": "abc", "number": "1234", "expiry": "13/20", "cvc": "1"})
    submit(browser, "Add money")
    errors = " ".join(element.text for element in browser.find_elements(By.CSS_SELECTOR, ".field-error"))
    assert "12.50" in errors
    fill_in(browser, "topup-form", {"amount": "5", "number": "4242 4242 4242 4241", "expiry": "13/20", "cvc": "1"})
    submit(browser, "Add money")
    errors = " ".join(element.text for element in browser.find_elements(By.CSS_SELECTOR, ".field-error"))
    assert "not a valid card number" in errors and "1 to 12" in errors and "3 or 4 digits" in errors
    assert "Test mode" in browser.find_element(By.CSS_SELECTOR, ".test-mode").text
    screenshot(browser, "wallet-errors")
    # A declined card is said at once on the top-up's page, with what to do; nothing arrived.
    fill_in(browser, "topup-form", {"amount": "5", "number": "4000 0000 0000 0002", "expiry": "12 / 2034", "cvc": "123"})
    submit(browser, "Add money")
    wait_for(browser, lambda: headline(browser) == "Not added: Your card was declined.", explain=lambda: headline(browser))
    assert browser.find_element(By.LINK_TEXT, "Try again")
    screenshot(browser, "wallet-declined")
    tab(browser, "Wallet")
    assert balance(browser) == before
    failed = next(li for li in browser.find_elements(By.CSS_SELECTOR, ".activity li") if "failed" in li.text)
    assert "Your card was declined." in failed.text
    amount = failed.find_element(By.CSS_SELECTOR, ".amount")
    assert amount.text == "$5.00" and "failed" in amount.get_attribute("class")

    action(browser, "pay")
    fill_in(browser, "send-form", {"to": "anna", "amount": "1"})
    submit(browser, "Review")
    assert "cannot send money to yourself" in browser.find_element(By.ID, "send-form").text
    fill_in(browser, "send-form", {"to": "@nobody-here", "amount": "1"})
    submit(browser, "Review")
    assert "No one has the username" in browser.find_element(By.ID, "send-form").text

    # Money out, with a second factor (a recovery code here): the balance drops at once and the withdrawal's page says
    # what happens next.
    second_factor(browser, plaza, "anna")
    tab(browser, "Wallet")
    action(browser, "withdraw")
    fill_in(browser, "withdraw-form", {"amount": "1.00"})
    submit(browser, "Withdraw")
    answer(browser, recovery_code(plaza, "anna"), "Withdraw")
    errors = lambda: " ".join(e.text for e in browser.find_elements(By.CSS_SELECTOR, ".field-error, .form-error"))
    wait_for(browser, lambda: "$1.00" in headline(browser), explain=errors)
    screenshot(browser, "wallet-withdrawn")
    tab(browser, "Wallet")
    cents = lambda text: int(round(float(text.replace("$", "").replace(",", "")) * 100))
    assert cents(balance(browser)) == cents(before) - 100
    navigate(browser, browser.find_element(By.XPATH, "//button[normalize-space()='Show a pay code']"))
    code = browser.find_element(By.CSS_SELECTOR, "[data-paycode]").text.replace("Your pay code:", "").strip()
    assert len(code.replace(" ", "")) == 8
    qr = browser.find_element(By.CSS_SELECTOR, "[data-paycode-qr] svg")
    assert qr.size["width"] >= 150 and qr.find_element(By.TAG_NAME, "path").get_attribute("d").startswith("M")
    screenshot(browser, "wallet-paycode")
