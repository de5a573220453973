"""A second factor before money leaves (issue 40): Anna sets up an authenticator app from Account → Security (the code
computed here from the secret the page shows, as her phone would), saves her recovery codes, and withdraws with a
code on the withdraw form's second step; a wrong code is named beside the field. Helpers for other flows that move
money: `second_factor(...)` sets an app up once per account and `recovery_code(...)` hands out its codes."""
import base64
import hashlib
import hmac
import struct
import time

import pytest
from selenium.webdriver.common.by import By

from conftest import free_port, screenshot, start_demo, stop
from test_accounts_flow import navigate, notice, submit, tab
from test_places_flow import log_in, wait_for

# (base URL, username) → {"secret": base32, "codes": unused recovery codes}: the demo server lives for the session.
ENROLLED = {}


def totp(secret, at=None):
    """RFC 6238 as an authenticator app computes it: HMAC-SHA-1 of the 30-second step, 6 digits."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    step = int((at if at is not None else time.time()) // 30)
    mac = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    return f"{(struct.unpack('>I', mac[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000:06d}"


def next_totp(secret):
    """The code of the next step (each step's code passes once: the one that confirmed the app is used)."""
    time.sleep(30 - time.time() % 30 + 0.5)
    return totp(secret)


def second_factor(driver, base, username):
    """Sets up an authenticator app for the signed-in `username` through Account → Security, once per account."""
    if (base, username) in ENROLLED:
        return ENROLLED[(base, username)]
    driver.get(base + "/account/security")
    submit(driver, "Set up an authenticator app")
    secret = driver.find_element(By.CSS_SELECTOR, "[data-totp-secret]").text.replace(" ", "")
    field = driver.find_element(By.ID, "totp-code")
    field.send_keys(totp(secret))
    submit(driver, "Turn on the authenticator app")
    codes = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "[data-recovery-codes] code")]
    assert len(codes) == 10, driver.find_element(By.TAG_NAME, "main").text
    ENROLLED[(base, username)] = {"secret": secret, "codes": codes}
    return ENROLLED[(base, username)]


def action(driver, name):
    """One of the wallet's actions on top (as `test_wallet_flow`, which imports this module)."""
    navigate(driver, driver.find_element(By.CSS_SELECTOR, f".quick-actions [data-action='{name}']"))


def headline(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-headline]").text


def recovery_code(base, username):
    return ENROLLED[(base, username)]["codes"].pop()


def answer(driver, code, button):
    """Types `code` into a money form's second step and sends the form again."""
    field = driver.find_element(By.ID, "second-factor-code")
    field.clear()
    field.send_keys(code)
    submit(driver, button)


@pytest.fixture(scope="module")
def vault():
    """A demo of its own: Carla's withdrawals here leave the shared demo's balances (which the wallet flow reads) alone."""
    port = free_port()
    server, workdir = start_demo(port)
    yield f"http://127.0.0.1:{port}"
    stop(server, workdir)


def test_set_up_an_app_save_the_codes_and_withdraw_with_a_code(vault, browser):
    plaza = vault
    log_in(browser, plaza, "carla", "demo-carla-2026")
    if (plaza, "carla") not in ENROLLED:
        # Without a second factor, a withdrawal says where to set one up.
        tab(browser, "Wallet")
        action(browser, "withdraw")
        browser.find_element(By.ID, "withdraw-amount").send_keys("1.00")
        submit(browser, "Withdraw")
        missing = browser.find_element(By.ID, "second-factor-missing")
        assert "Account → Security" in missing.text
        screenshot(browser, "second-factor-missing")
        navigate(browser, missing.find_element(By.LINK_TEXT, "Account → Security"))
        assert browser.find_element(By.CSS_SELECTOR, "[data-no-factors]")

        submit(browser, "Set up an authenticator app")
        assert "Scan the QR code" in notice(browser)
        qr = browser.find_element(By.CSS_SELECTOR, "#setup .qr")
        assert qr.get_attribute("role") == "img" and qr.get_attribute("aria-label")
        assert qr.find_element(By.TAG_NAME, "svg").size["width"] >= 120
        secret = browser.find_element(By.CSS_SELECTOR, "[data-totp-secret]").text.replace(" ", "")
        screenshot(browser, "second-factor-setup")
        browser.find_element(By.ID, "totp-code").send_keys(wrong(secret))
        submit(browser, "Turn on the authenticator app")
        assert "did not work" in browser.find_element(By.ID, "totp-code-error").text
        browser.find_element(By.ID, "totp-code").send_keys(totp(secret))
        submit(browser, "Turn on the authenticator app")
        codes = [element.text for element in browser.find_elements(By.CSS_SELECTOR, "[data-recovery-codes] code")]
        assert len(codes) == 10 and len(set(codes)) == 10
        assert "shown only once" in notice(browser)
        assert browser.find_element(By.CSS_SELECTOR, "[data-download-codes]").is_displayed()
        screenshot(browser, "second-factor-codes")
        ENROLLED[(plaza, "carla")] = {"secret": secret, "codes": codes}
        browser.get(plaza + "/account/security")
        assert not browser.find_elements(By.CSS_SELECTOR, "[data-recovery-codes]")  # shown once
        assert "10 of 10" in browser.find_element(By.CSS_SELECTOR, "[data-codes-left]").text
        assert len(browser.find_elements(By.CSS_SELECTOR, "[data-factor]")) == 1
    secret = ENROLLED[(plaza, "carla")]["secret"]

    # Withdrawing: the code is asked on a second step; a wrong one is named beside the field; the right one goes.
    tab(browser, "Wallet")
    action(browser, "withdraw")
    browser.find_element(By.ID, "withdraw-amount").send_keys("1.00")
    submit(browser, "Withdraw")
    step = browser.find_element(By.ID, "second-factor")
    assert "Code from your authenticator app" in step.text
    assert browser.find_element(By.ID, "withdraw-amount").get_attribute("value") == "1.00"
    answer(browser, wrong(secret), "Withdraw")
    assert "did not work" in browser.find_element(By.ID, "second-factor-error").text
    screenshot(browser, "second-factor-wrong-code")
    answer(browser, next_totp(secret), "Withdraw")
    wait_for(browser, lambda: "$1.00" in headline(browser), explain=lambda: browser.find_element(By.TAG_NAME, "main").text)
    screenshot(browser, "second-factor-withdrawn")


def wrong(secret):
    """A code that is not the one of now or the step before."""
    taken = {totp(secret), totp(secret, time.time() - 30)}
    return next(code for code in ["000000", "111111", "222222"] if code not in taken)
