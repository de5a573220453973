"""Loyalty at the counter: the merchant starts a program and shows its code, the customer takes the card on the shop's
page and types the code; then the counter types the card's own code and the punch appears on the phone live; a full
card's redeem code is confirmed at the counter, live on the phone too, and its receipt lands in the inbox."""
import base64
import hashlib
import io
import json
import os
import subprocess
import tempfile
import urllib.error
import urllib.request
import uuid
import zipfile

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

from conftest import GOOGLE_WALLET, new_browser, screenshot, settled
from test_accounts_flow import click, fill, navigate, notice, submit, tab
from test_places_flow import log_in, wait_for
from test_wallet_flow import fill_in, follow_live, pending


def check_pass_with_openssl(driver, href):
    """The pass is a valid ZIP whose manifest hashes its files, signed (detached CMS) so that OpenSSL accepts it."""
    encoded = driver.execute_async_script(
        "fetch(arguments[0]).then(r => r.blob()).then(b => { const f = new FileReader(); "
        "f.onload = () => arguments[1](f.result.split(',')[1]); f.readAsDataURL(b); })", href)
    with tempfile.TemporaryDirectory() as folder:
        with zipfile.ZipFile(io.BytesIO(base64.b64decode(encoded))) as archive:
            assert archive.testzip() is None
            archive.extractall(folder)
        manifest = json.load(open(os.path.join(folder, "manifest.json")))
        for name, digest in manifest.items():
            assert hashlib.sha1(open(os.path.join(folder, name), "rb").read()).hexdigest() == digest, name
        verify = ["openssl", "cms", "-verify", "-binary", "-inform", "DER", "-in", "signature", "-content", "manifest.json",
                  "-noverify", "-out", os.devnull]
        assert subprocess.run(verify, cwd=folder, capture_output=True).returncode == 0, "OpenSSL accepts the signature"
        open(os.path.join(folder, "manifest.json"), "w").write("{}")
        assert subprocess.run(verify, cwd=folder, capture_output=True).returncode != 0, "and refuses another manifest"


def check_google_link_with_openssl(driver, href):
    """The "Save to Google Wallet" link is Google's save URL with a JWT for the card, signed RS256 by the service account
    (OpenSSL checks it against the account's public key) and refused once anything signed changes."""
    class Keep(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args):
            return None

    cookies = "; ".join(f"{cookie['name']}={cookie['value']}" for cookie in driver.get_cookies())
    try:
        urllib.request.build_opener(Keep).open(urllib.request.Request(href, headers={"Cookie": cookies}), timeout=10)
        raise AssertionError("the link redirects to Google")
    except urllib.error.HTTPError as answer:
        assert answer.code == 303
        location = answer.headers["Location"]
    assert location.startswith("https://pay.google.com/gp/v/save/")
    header, claims, signature = location.rsplit("/", 1)[1].split(".")
    decode = lambda part: base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
    assert json.loads(decode(header))["alg"] == "RS256"
    body = json.loads(decode(claims))
    assert body["iss"] == GOOGLE_WALLET["account"] and body["aud"] == "google" and body["typ"] == "savetowallet"
    card = body["payload"]["loyaltyObjects"][0]
    assert card["id"].startswith(GOOGLE_WALLET["issuer"] + ".") and card["accountId"] == "anna" and card["state"] == "ACTIVE"
    with tempfile.TemporaryDirectory() as folder:
        open(os.path.join(folder, "signature"), "wb").write(decode(signature))
        verify = ["openssl", "dgst", "-sha256", "-verify", GOOGLE_WALLET["public"], "-signature", "signature", "signed"]
        open(os.path.join(folder, "signed"), "w").write(f"{header}.{claims}")
        assert subprocess.run(verify, cwd=folder, capture_output=True).returncode == 0, "OpenSSL accepts the JWT's signature"
        open(os.path.join(folder, "signed"), "w").write(f"{header}.e30")
        assert subprocess.run(verify, cwd=folder, capture_output=True).returncode != 0, "and refuses other claims"


def text_of(driver, selector):
    """The text of an element in a live region, read again if the region reloaded meanwhile."""
    return wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, selector).text)


def test_a_card_is_punched_at_the_counter_filled_and_redeemed(plaza, browser):
    title = "Espresso card " + uuid.uuid4().hex[:4]
    # The merchant keeps the counter open on a tablet.
    counter = new_browser("desktop")
    counter.set_window_size(820, 1180)
    try:
        log_in(counter, plaza, "bruno", "demo-bruno-2026")
        navigate(counter, next(link for link in counter.find_elements(By.LINK_TEXT, "My business") if link.is_displayed()))
        navigate(counter, counter.find_elements(By.LINK_TEXT, "Loyalty")[0])
        fill(counter, {"title": title, "punchesRequired": "10", "reward": "An espresso"})
        # The rarer rules wait behind "More rules"; this counter lets a customer punch twice in a row.
        counter.find_element(By.CSS_SELECTOR, "#new-program summary").click()
        fill(counter, {"velocityWindowMinutes": "0"})
        submit(counter, "Start the program")
        assert "The program is running" in notice(counter)
        assert title in counter.find_element(By.CSS_SELECTOR, "[data-punch-qr]").find_element(By.XPATH, "../..").text
        assert counter.find_element(By.CSS_SELECTOR, "[data-punch-qr] svg")
        screenshot(counter, "loyalty-counter")
        counter_url = counter.current_url

        # The customer takes the card on the shop's page and types the code the counter shows.
        log_in(browser, plaza, "anna", "demo-anna-2026")
        business = counter_url.split("/loyalty/counter/")[1].split("?")[0]
        browser.get(f"{plaza}/places/businesses/{business}")
        offer = next(section for section in browser.find_elements(By.CSS_SELECTOR, "[data-loyalty-program]") if title in section.text)
        navigate(browser, offer.find_element(By.XPATH, ".//button[normalize-space()='Take this card']"))
        assert "The card is yours" in notice(browser)
        # The card downloads as a signed Apple Wallet pass (the demo's certificate is its own).
        link = browser.find_element(By.CSS_SELECTOR, "[data-apple-pass]")
        fetched = browser.execute_async_script(
            "fetch(arguments[0].href).then(r => r.arrayBuffer().then(b => arguments[1]([r.status, r.headers.get('content-type'), "
            "new Uint8Array(b.slice(0, 2))[0], b.byteLength])))", link)
        assert fetched[0] == 200 and fetched[1] == "application/vnd.apple.pkpass" and fetched[2] == 0x50 and fetched[3] > 1000
        check_pass_with_openssl(browser, link.get_attribute("href"))
        google = browser.find_element(By.CSS_SELECTOR, "[data-google-pass]").get_attribute("href")
        assert google.endswith("/google-wallet")
        check_google_link_with_openssl(browser, google)
        code = counter.find_element(By.CSS_SELECTOR, "[data-punch-code]").text
        fill(browser, {"code": code})
        submit(browser, "Punch my card")
        assert "Punch counted: 1 of 10" in notice(browser)
        # The counter, open all along, lists the punch live.
        wait_for(counter, lambda: "@anna" in counter.find_element(By.CSS_SELECTOR, "[data-counter-activity]").text,
                 explain=lambda: counter.find_element(By.CSS_SELECTOR, "[data-counter-activity]").text)
        # Eight more visits: each time the counter shows a new code (a code punches a customer's card once).
        for punch in range(2, 10):
            counter.refresh()
            fill(browser, {"code": counter.find_element(By.CSS_SELECTOR, "[data-punch-code]").text})
            submit(browser, "Punch my card")
            assert f"Punch counted: {punch} of 10" in notice(browser)

        # The tenth, the other way round: the phone shows the card's own code, the counter types it, the card fills up live.
        submit(browser, "Show my code to staff")
        wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, "[data-customer-code]").text.isdigit())
        assert browser.find_element(By.CSS_SELECTOR, "[data-customer-qr] svg")
        wait_for(browser, lambda: browser.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
        screenshot(browser, "loyalty-card-code")
        counter.get(counter_url)
        fill(counter, {"code": text_of(browser, "[data-customer-code]")})
        submit(counter, "Confirm the code")
        assert f"Punched @anna's {title}: +1, now 10 of 10" in notice(counter)
        wait_for(counter, lambda: "@anna" in counter.find_element(By.CSS_SELECTOR, "[data-counter-activity]").text)
        wait_for(
            browser, lambda: browser.find_element(By.CSS_SELECTOR, "[data-punches]").text == "10 of 10",
            explain=lambda: browser.find_element(By.CSS_SELECTOR, "[data-punches]").text)
        assert browser.find_elements(By.CSS_SELECTOR, ".punches i.pop"), "the new punch pops in"
        assert not browser.find_element(By.ID, "scan-me").is_displayed(), "a full card offers no more punching"
        screenshot(browser, "loyalty-card-full")

        submit(browser, "Show my redeem code")
        code = text_of(browser, "[data-redeem-code]")
        assert len(code) == 8 and browser.find_elements(By.CSS_SELECTOR, "#redeem svg")
        screenshot(browser, "loyalty-redeem")
        wait_for(browser, lambda: browser.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
        fill(counter, {"code": code})
        submit(counter, "Confirm the code")
        assert "Redeemed: An espresso for @anna" in notice(counter)
        screenshot(counter, "loyalty-counter-redeemed")
        wait_for(browser, lambda: "confirmed by @bruno" in browser.find_element(By.CSS_SELECTOR, "[data-redemption]").text)
        browser.get(f"{plaza}/inbox")
        assert "gave you your reward: An espresso" in browser.find_element(By.ID, "inbox").text

        # Anna lets the bakery see her visits; the merchant's figures list her among the regulars, then she stops.
        browser.back()
        navigate(browser, browser.find_element(By.CSS_SELECTOR, "#sharing button"))
        assert "can now see your visits" in notice(browser)
        counter.get(counter_url)
        navigate(counter, counter.find_element(By.LINK_TEXT, "Figures, history and regulars"))
        assert counter.find_element(By.CSS_SELECTOR, "[data-chart=punches] svg rect")
        assert "Anna Customer" in counter.find_element(By.CSS_SELECTOR, "[data-regulars]").text
        screenshot(counter, "loyalty-figures")
        navigate(browser, browser.find_element(By.CSS_SELECTOR, "#sharing button"))
        assert "no longer sees your visits" in notice(browser)
        counter.refresh()
        assert "Anna Customer" not in counter.find_element(By.CSS_SELECTOR, "[data-regulars]").text

        # Leave the demo as it was: the program is paused.
        counter.get(counter_url)
        pause = counter.find_element(By.XPATH, f"//li[contains(., '{title}')]//button[normalize-space()='Pause']")
        navigate(counter, pause)
        assert "paused" in notice(counter)
    finally:
        counter.quit()


def test_paying_the_shop_punches_the_card(plaza, browser):
    """One visit: the bakery's program punches when paid (one per $2.00); Anna lets paying take a first card, pays a
    $4.50 charge from her pay code, and the payment, its receipt and the counter say what it earned."""
    title = "Bread card " + uuid.uuid4().hex[:4]
    merchant = new_browser("desktop")
    try:
        log_in(merchant, plaza, "bruno", "demo-bruno-2026")
        navigate(merchant, next(link for link in merchant.find_elements(By.LINK_TEXT, "My business") if link.is_displayed()))
        navigate(merchant, merchant.find_elements(By.LINK_TEXT, "Loyalty")[0])
        fill(merchant, {"title": title, "punchesRequired": "4", "reward": "A loaf"})
        click(merchant, merchant.find_element(By.CSS_SELECTOR, "#new-program input[name=earnOnPayment]"))
        fill(merchant, {"punchPer": "2.00"})
        submit(merchant, "Start the program")
        assert "The program is running" in notice(merchant)
        assert "one per $2.00" in merchant.find_element(By.XPATH, f"//li[contains(., '{title}')]").text
        loyalty_counter = merchant.current_url

        # Anna lets paying take a first card, from her loyalty cards.
        log_in(browser, plaza, "anna", "demo-anna-2026")
        navigate(browser, browser.find_element(By.LINK_TEXT, "Loyalty cards"))
        setting = browser.find_element(By.CSS_SELECTOR, "#card-on-payment input[name=cardOnPayment]")
        if not setting.is_selected():
            click(browser, setting)
        navigate(browser, browser.find_element(By.CSS_SELECTOR, "#card-on-payment button"))
        assert "takes its card for you" in notice(browser)
        screenshot(browser, "loyalty-card-on-payment")

        # Her pay code, read out at the counter; the charge waits on her phone.
        tab(browser, "Wallet")
        navigate(browser, browser.find_element(By.XPATH, "//button[normalize-space()='Show a pay code']"))
        code = browser.find_element(By.CSS_SELECTOR, "[data-paycode]").text.replace("Your pay code:", "").strip()
        navigate(merchant, next(link for link in merchant.find_elements(By.LINK_TEXT, "My business") if link.is_displayed()))
        navigate(merchant, merchant.find_elements(By.LINK_TEXT, "Counter")[0])
        fill_in(merchant, "charge-form", {"payCode": code, "amount": "4.50", "description": "Two loaves"})
        click(merchant, merchant.find_element(By.XPATH, "//button[normalize-space()='Ask to pay']"))
        tab(browser, "Home")
        follow_live(browser, "Review and pay")
        wait_for(browser, lambda: len(pending(browser)) == 1)
        settled(lambda: click(browser, browser.find_element(By.CSS_SELECTOR, "[data-approve]")))
        earned = f"+2 punches on {title} (2 of 4)"
        done = lambda: browser.find_element(By.CSS_SELECTOR, "[data-async-done]").text
        wait_for(browser, lambda: earned in done(), explain=done)
        assert done().startswith("Paid Bruno's Bakery $4.50 ✓")
        screenshot(browser, "loyalty-paid-punched")

        # The payment's page and its receipt say it; the card is hers, two punches in.
        tab(browser, "Wallet")
        navigate(browser, browser.find_element(By.PARTIAL_LINK_TEXT, "Paid Bruno's Bakery"))
        # (Her demo coffee card, which she holds, takes its punch as well.)
        assert earned in [line.text for line in browser.find_elements(By.CSS_SELECTOR, "[data-movement-loyalty]")]
        navigate(browser, browser.find_element(By.LINK_TEXT, "Receipt"))
        assert earned in browser.find_element(By.CSS_SELECTOR, ".receipt").text
        screenshot(browser, "loyalty-receipt-punches")
        receipt_url = browser.current_url
        charge_id = receipt_url.rstrip("/").rsplit("/", 1)[1]
        navigate(browser, browser.find_element(By.LINK_TEXT, "Wallet"))
        tab(browser, "Home")
        navigate(browser, browser.find_element(By.LINK_TEXT, "Loyalty cards"))
        assert any(title in row.text and "2 of 4" in row.text for row in browser.find_elements(By.CSS_SELECTOR, "[data-loyalty-cards] li"))

        # The counter lists it as punched by paying; the merchant's settled charge says it too.
        assert earned in [line.text for line in merchant.find_elements(By.CSS_SELECTOR, "[data-charge-loyalty]")]
        merchant.get(loyalty_counter)
        wait_for(merchant, lambda: f"+2 punches on {title} by paying, now 2 of 4" in merchant.find_element(By.CSS_SELECTOR, "[data-counter-activity]").text,
                 explain=lambda: merchant.find_element(By.CSS_SELECTOR, "[data-counter-activity]").text)
        screenshot(merchant, "loyalty-counter-paid")

        # A refund of one loaf: the counter asks first and takes a reason, which she reads on her receipt.
        navigate(merchant, next(link for link in merchant.find_elements(By.LINK_TEXT, "My business") if link.is_displayed()))
        navigate(merchant, merchant.find_elements(By.LINK_TEXT, "Counter")[0])
        # (The counter's live region draws itself again as the page connects: type once it is live.)
        wait_for(merchant, lambda: merchant.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
        for attempt in range(5):
            try:
                row = merchant.find_element(By.CSS_SELECTOR, f"#counter li[data-charge='{charge_id}']")
                row.find_element(By.NAME, "amount").send_keys("2.25")
                row.find_element(By.NAME, "reason").send_keys("One loaf was stale")
                click(merchant, row.find_element(By.XPATH, ".//button[normalize-space()='Refund']"))
                break
            except StaleElementReferenceException:
                if attempt == 4:
                    raise
        assert "Refund Anna Customer" in merchant.switch_to.alert.text
        merchant.switch_to.alert.accept()
        refunds = lambda: merchant.find_element(By.CSS_SELECTOR, f"#counter li[data-charge='{charge_id}']").text
        wait_for(merchant, lambda: "refunded" in refunds(), explain=refunds)
        browser.get(receipt_url)
        assert "One loaf was stale" in browser.find_element(By.CSS_SELECTOR, ".receipt").text
        screenshot(browser, "loyalty-receipt-refund")
        merchant.get(loyalty_counter)
        tab(browser, "Home")
        navigate(browser, browser.find_element(By.LINK_TEXT, "Loyalty cards"))

        # Leave the demo as it was: her setting off, the program paused.
        setting = browser.find_element(By.CSS_SELECTOR, "#card-on-payment input[name=cardOnPayment]")
        if setting.is_selected():
            click(browser, setting)
        navigate(browser, browser.find_element(By.CSS_SELECTOR, "#card-on-payment button"))
        pause = merchant.find_element(By.XPATH, f"//li[contains(., '{title}')]//button[normalize-space()='Pause']")
        navigate(merchant, pause)
    finally:
        merchant.quit()
