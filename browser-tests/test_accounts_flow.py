"""Sign up, verify the e-mail with the mailed code, log out, log in, reset the password: as a person would."""
import uuid

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import latest_code, screenshot

PASSWORD = "a long enough passphrase"
NEW_PASSWORD = "a brand new passphrase"


def fill(driver, fields):
    for name, value in fields.items():
        element = driver.find_element(By.NAME, name)
        element.clear()
        element.send_keys(value)


def click(driver, element):
    """Clicks `element` once scrolled to the middle of the screen (on phones the tab bar covers the bottom)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def navigate(driver, element):
    """Clicks `element` and waits until the next page has loaded, so no step reads the page it left.

    The old page's window carries a marker; the new page's window does not. (Waiting for the old element to go
    stale races with chromium, which can answer "node does not belong to the document" mid-navigation.)"""
    driver.execute_script("window.__plazaLeaving = true")
    click(driver, element)
    WebDriverWait(driver, 10, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.execute_script("return window.__plazaLeaving === undefined && document.readyState === 'complete'"))


def submit(driver, label):
    """Clicks the first visible button with this label (the phone's and the desktop's navigation differ)."""
    buttons = driver.find_elements(By.XPATH, f"//button[normalize-space()='{label}']")
    navigate(driver, next(button for button in buttons if button.is_displayed()))


def tab(driver, name):
    """Follows a main navigation entry (the bottom tab bar on phones, the top bar on desktops)."""
    navigate(driver, next(link for link in driver.find_elements(By.CSS_SELECTOR, "nav.tabs a") if link.text.startswith(name)))


def notice(driver):
    """The page's notice; when there is none, fails with the page's address and what it says instead."""
    shown = driver.find_elements(By.CSS_SELECTOR, ".notice")
    if not shown:
        main = driver.find_elements(By.TAG_NAME, "main")
        said = main[0].text if main else driver.find_element(By.TAG_NAME, "body").text
        raise AssertionError(f"no notice on {driver.current_url}: {said[:1500]}")
    return shown[0].text


def test_sign_up_verify_log_out_log_in_and_reset(plaza, browser):
    name = "u" + uuid.uuid4().hex[:10]
    email = f"{name}@example.com"

    browser.get(plaza + "/")
    screenshot(browser, "home")
    navigate(browser, browser.find_element(By.LINK_TEXT, "Create an account"))
    assert browser.current_url.endswith("/signup")
    fill(browser, {"email": email, "username": name, "displayName": "Browser Tester", "password": PASSWORD})
    screenshot(browser, "signup")
    submit(browser, "Sign up")

    assert "/verify-email" in browser.current_url
    assert "We sent you a code" in notice(browser)
    assert browser.find_element(By.NAME, "email").get_attribute("value") == email
    fill(browser, {"code": latest_code(plaza, email)})
    screenshot(browser, "verify-email")
    submit(browser, "Verify")

    # Verifying signs in the browser that signed up, and the home screen welcomes them.
    assert browser.current_url.endswith("/?notice=welcome")
    assert "Welcome to Plaza" in notice(browser)
    screenshot(browser, "home-signed-in")
    tab(browser, "Account")
    assert "@" + name in browser.page_source
    screenshot(browser, "account")

    submit(browser, "Log out")
    assert "/login" in browser.current_url
    fill(browser, {"login": name, "password": PASSWORD})
    screenshot(browser, "login")
    submit(browser, "Log in")
    assert browser.current_url == plaza + "/"
    tab(browser, "Account")
    submit(browser, "Log out")
    assert "/login" in browser.current_url
    browser.get(plaza + "/account")
    assert "/login?next=" in browser.current_url

    navigate(browser, browser.find_element(By.LINK_TEXT, "Forgot your password?"))
    fill(browser, {"email": email})
    screenshot(browser, "forgot-password")
    submit(browser, "Send me a code")
    assert "/reset-password" in browser.current_url
    fill(browser, {"code": latest_code(plaza, email), "newPassword": NEW_PASSWORD})
    screenshot(browser, "reset-password")
    submit(browser, "Set the new password")
    assert "password was changed" in notice(browser)

    fill(browser, {"login": email, "password": PASSWORD})
    submit(browser, "Log in")
    assert "wrong" in browser.find_element(By.CSS_SELECTOR, ".form-error").text
    screenshot(browser, "login-error")
    fill(browser, {"login": email, "password": NEW_PASSWORD})
    submit(browser, "Log in")
    assert browser.current_url == plaza + "/"


def test_mistakes_are_shown_next_to_their_fields(plaza, browser):
    browser.get(plaza + "/signup")
    fill(browser, {"email": "not-an-address", "username": "No!", "displayName": "X", "password": "short"})
    submit(browser, "Sign up")
    errors = {e.get_attribute("id"): e.text for e in browser.find_elements(By.CSS_SELECTOR, ".field-error")}
    assert set(errors) >= {"email-error", "username-error", "password-error"}
    email = browser.find_element(By.NAME, "email")
    assert email.get_attribute("aria-invalid") == "true"
    assert "email-error" in email.get_attribute("aria-describedby")
    screenshot(browser, "signup-errors")


def test_pages_fit_the_screen_and_load_no_outside_assets(plaza, browser):
    for path in ["/", "/signup", "/login", "/docs/api"]:
        browser.get(plaza + path)
        width = browser.execute_script("return document.documentElement.scrollWidth")
        viewport = browser.execute_script("return window.innerWidth")
        assert width <= viewport, f"{path} scrolls sideways at {browser.size_name} width"
        sources = browser.execute_script(
            "return [...document.querySelectorAll('script[src],link[href],img[src]')].map(e => e.src || e.href)")
        assert all(source.startswith(plaza) for source in sources), sources
    screenshot(browser, "api-docs")


def test_the_demo_accounts_can_log_in(plaza, browser):
    browser.get(plaza + "/login")
    fill(browser, {"login": "bruno", "password": "demo-bruno-2026"})
    submit(browser, "Log in")
    assert "Hi Bruno's Bakery" in browser.find_element(By.CSS_SELECTOR, ".balance-card").text
    # A merchant finds their business from the navigation, at either width.
    links = [link for link in browser.find_elements(By.LINK_TEXT, "My business") if link.is_displayed()]
    navigate(browser, links[0])
    assert "Bruno's Bakery" in browser.find_element(By.TAG_NAME, "main").text
