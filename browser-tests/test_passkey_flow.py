"""Passkeys as a second factor (issue 40): Carla adds a passkey from Account → Security (Chromium's virtual
authenticator stands in for her phone's, through CDP's WebAuthn domain), saves the recovery codes it brings, and
withdraws with "Use your passkey" on the withdraw form's second step. Browsers refuse an IP address as a passkey's
site, so this demo is opened at http://localhost:<port>, the address Plaza names itself by without PLAZA_PUBLIC_URL."""
import pytest
from selenium.webdriver.common.by import By

from conftest import free_port, screenshot, start_demo, stop
from test_accounts_flow import navigate, notice, submit, tab
from test_places_flow import log_in, wait_for
from test_second_factor_flow import action, headline


@pytest.fixture
def local():
    port = free_port()
    server, workdir = start_demo(port)
    yield f"http://localhost:{port}"
    stop(server, workdir)


def authenticator(driver):
    """A platform authenticator with user verification, which consents by itself (as Face ID would)."""
    driver.execute_cdp_cmd("WebAuthn.enable", {"enableUI": False})
    return driver.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})["authenticatorId"]


def test_add_a_passkey_and_withdraw_with_it(local, browser):
    device = authenticator(browser)
    log_in(browser, local, "carla", "demo-carla-2026")
    tab(browser, "Account")
    navigate(browser, browser.find_element(By.CSS_SELECTOR, "a[href='/account/security']"))
    section = browser.find_element(By.ID, "passkeys")
    assert "face, your fingerprint" in section.text and "localhost" in section.text
    name = browser.find_element(By.ID, "passkey-name")
    name.clear()
    name.send_keys("Carla's phone")
    screenshot(browser, "passkey-add")
    submit(browser, "Add a passkey")
    wait_for(browser, lambda: "is set up" in notice(browser), explain=lambda: browser.find_element(By.TAG_NAME, "main").text)
    assert "Carla's phone" in notice(browser) and "shown only once" in notice(browser)
    codes = [element.text for element in browser.find_elements(By.CSS_SELECTOR, "[data-recovery-codes] code")]
    assert len(codes) == 10
    factors = [element.text for element in browser.find_elements(By.CSS_SELECTOR, "[data-factor]")]
    assert len(factors) == 1 and "Passkey: Carla's phone" in factors[0]
    screenshot(browser, "passkey-added")
    stored = browser.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": device})["credentials"]
    assert len(stored) == 1 and stored[0]["rpId"] == "localhost"

    # Withdrawing asks for the second factor; the passkey answers it with one tap.
    tab(browser, "Wallet")
    action(browser, "withdraw")
    browser.find_element(By.ID, "withdraw-amount").send_keys("1.00")
    submit(browser, "Withdraw")
    step = browser.find_element(By.ID, "second-factor")
    assert "Or type one of your recovery codes" in step.text
    use = step.find_element(By.CSS_SELECTOR, "[data-passkey-answer]")
    screenshot(browser, "passkey-asked")
    navigate(browser, use)
    wait_for(browser, lambda: "$1.00" in headline(browser), explain=lambda: browser.find_element(By.TAG_NAME, "main").text)
    screenshot(browser, "passkey-withdrawn")
    stored = browser.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": device})["credentials"]
    assert stored[0]["signCount"] >= 2  # made, then used once

