"""Trust at the till (issue 39), by clicking: a new customer shows her QR for friends to pay her; Bruno prints his
shop's QR from the counter, she opens it, shows the pay code it offers, and pays his charge right there. Then she
reports a problem with that payment from its receipt, Bruno answers from his counter, she asks Plaza to decide, and
the admin upholds it with a refund; she reads the decision. The admin also reads who a waiting merchant is."""
import re
import uuid

from selenium.webdriver.common.by import By

from conftest import new_browser, screenshot, settled
from test_accounts_flow import click, fill, navigate, notice, submit, tab
from test_market_deal_flow import sign_up
from test_places_flow import log_in, wait_for
from test_wallet_flow import action, fill_in, headline, pending


def live(driver):
    wait_for(driver, lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")


def follow(driver, selector):
    """Follows the first visible link matching `selector` (phones and desktops show some links in other places)."""
    navigate(driver, next(link for link in driver.find_elements(By.CSS_SELECTOR, selector) if link.is_displayed()))


def test_qr_codes_and_a_payment_dispute_from_report_to_decision(plaza, browser):
    customer = browser
    merchant = new_browser(browser.size_name)
    admin = new_browser(browser.size_name)
    try:
        name = "t" + uuid.uuid4().hex[:8]
        sign_up(customer, plaza, name, "Tess Trust")
        tab(customer, "Wallet")
        action(customer, "add-money")
        fill_in(customer, "topup-form", {"amount": "20", "number": "4242 4242 4242 4242", "expiry": "1234", "cvc": "123"})
        submit(customer, "Add money")
        wait_for(customer, lambda: "Added $20.00" in headline(customer), explain=lambda: headline(customer))

        # Her QR, for a friend to pay her: the picture and its text twin.
        tab(customer, "Wallet")
        follow(customer, "[data-my-qr-link]")
        assert customer.find_element(By.CSS_SELECTOR, "[data-my-username]").text == "@" + name
        assert customer.find_element(By.CSS_SELECTOR, "[data-my-link]").text.endswith("/wallet/send?to=" + name)
        assert customer.find_elements(By.CSS_SELECTOR, "[data-my-qr] svg")
        screenshot(customer, "trust-my-qr")

        # Bruno prints his shop's QR from the counter.
        log_in(merchant, plaza, "bruno", "demo-bruno-2026")
        follow(merchant, "a[href='/places/mine']")
        navigate(merchant, merchant.find_elements(By.LINK_TEXT, "Counter")[0])
        counter = merchant.current_url
        follow(merchant, "[data-poster-link]")
        shop = merchant.find_element(By.CSS_SELECTOR, "[data-shop-link]").text
        assert merchant.find_elements(By.CSS_SELECTOR, "[data-shop-qr] svg")
        screenshot(merchant, "trust-shop-poster")

        # She scans it: the shop's pay page offers a pay code, and Bruno's charge arrives there to pay.
        customer.get(shop)
        assert "Pay Bruno's Bakery" in customer.find_element(By.TAG_NAME, "h1").text
        submit(customer, "Show a pay code")
        code = re.sub(r"\D", "", customer.find_element(By.CSS_SELECTOR, "[data-paycode]").text)
        live(customer)
        screenshot(customer, "trust-shop-pay-page")
        merchant.get(counter)
        live(merchant)
        fill_in(merchant, "charge-form", {"payCode": code, "amount": "4.20", "description": "Two pretzels"})
        click(merchant, merchant.find_element(By.XPATH, "//button[normalize-space()='Ask to pay']"))
        wait_for(customer, lambda: len(pending(customer)) == 1, explain=lambda: customer.find_element(By.ID, "charges").text)
        settled(lambda: click(customer, customer.find_element(By.CSS_SELECTOR, "[data-approve]")))
        wait_for(customer, lambda: "Paid Bruno's Bakery $4.20" in customer.find_element(By.CSS_SELECTOR, "[data-async-done]").text)

        # A problem with that payment, from its receipt.
        tab(customer, "Wallet")
        navigate(customer, customer.find_element(By.PARTIAL_LINK_TEXT, "Paid Bruno's Bakery"))
        navigate(customer, customer.find_element(By.LINK_TEXT, "Receipt"))
        follow(customer, "[data-problem-link]")
        submit(customer, "Report the problem")
        assert customer.find_element(By.ID, "reason-error").text == "Choose what went wrong."
        click(customer, customer.find_element(By.CSS_SELECTOR, "input[name=reason][value=charged_twice]"))
        fill(customer, {"details": "The pretzels were charged twice at the till."})
        screenshot(customer, "trust-dispute-form")
        submit(customer, "Report the problem")
        assert "Reported" in notice(customer)
        dispute = customer.current_url.split("?")[0]
        path = dispute[len(plaza):]
        screenshot(customer, "trust-dispute-reported")

        # Bruno answers from his counter's list of disputes.
        merchant.get(counter)
        follow(merchant, "[data-disputes-link]")
        follow(merchant, f"a[href='{path}']")
        fill(merchant, {"message": "We rang it up once; please check your wallet history."})
        submit(merchant, "Send the answer")
        assert "Answer sent" in notice(merchant)

        # Not solved for her: she asks Plaza to decide.
        customer.get(dispute)
        assert "We rang it up once" in customer.find_element(By.CSS_SELECTOR, "[data-dispute-answer]").text
        click(customer, customer.find_element(By.CSS_SELECTOR, "[data-escalate]"))
        customer.switch_to.alert.accept()
        wait_for(customer, lambda: "Sent to Plaza" in notice(customer))

        # The admin decides it from the review queue.
        log_in(admin, plaza, "admin", "demo-admin-2026")
        follow(admin, "a[href='/admin']")
        navigate(admin, admin.find_element(By.PARTIAL_LINK_TEXT, "@" + name))
        submit(admin, "Review this")
        click(admin, admin.find_element(By.CSS_SELECTOR, "input[name=action][value=refund]"))
        fill(admin, {"reason": "The till's record shows the same pretzels twice."})
        submit(admin, "Uphold: refund the customer")
        assert "You upheld the dispute" in notice(admin)
        screenshot(admin, "trust-admin-dispute")

        customer.get(dispute)
        decision = customer.find_element(By.CSS_SELECTOR, "[data-dispute-decision]").text
        assert "Refunded" in decision and "$4.20 went back to Tess Trust" in decision
        screenshot(customer, "trust-dispute-decided")
        tab(customer, "Wallet")
        assert customer.find_element(By.CSS_SELECTOR, "[data-balance]").text == "$20.00"

        # Who a waiting merchant is, before any decision: Dora, with her verified address and payout status.
        admin.get(plaza + "/admin")
        navigate(admin, admin.find_element(By.PARTIAL_LINK_TEXT, "(@dora)"))
        facts = admin.find_element(By.CSS_SELECTOR, "[data-merchant]").text
        assert "dora" in facts and "verified" in facts and "Member since" in facts and "Payouts" in facts
        screenshot(admin, "trust-admin-merchant")
    finally:
        merchant.quit()
        admin.quit()
