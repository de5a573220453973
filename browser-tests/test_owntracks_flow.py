"""OwnTracks in one tap (issue 40): a new customer finds Places → Share in the background, is told sharing is off and
turns it on, creates the OwnTracks setup and gets its link and QR code once. The test reads the configuration from the
link as OwnTracks would (base64 JSON), posts a location to its URL with its username and password as the app does,
and the page then says when Plaza last heard from the phone. Revoked, the phone's next post gets 401."""
import base64
import json
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from conftest import screenshot
from test_accounts_flow import click, fill, navigate, notice, submit, tab
from test_market_deal_flow import sign_up


def configuration_in(link):
    """What OwnTracks reads from `owntracks:///config?inline=<base64 JSON>`."""
    parsed = urllib.parse.urlparse(link)
    assert parsed.scheme == "owntracks" and parsed.path == "/config", link
    inline = urllib.parse.parse_qs(parsed.query)["inline"][0]
    return json.loads(base64.b64decode(inline))


def post_location(configuration, latitude=48.1374, longitude=11.5755):
    """One `_type: location` message as OwnTracks sends it in HTTP mode; returns (status, body)."""
    message = {"_type": "location", "lat": latitude, "lon": longitude, "tst": int(time.time()) - 3, "acc": 8,
               "tid": configuration["tid"], "batt": 77, "conn": "m"}
    credentials = base64.b64encode(f"{configuration['username']}:{configuration['password']}".encode()).decode()
    request = urllib.request.Request(configuration["url"], data=json.dumps(message).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": "Basic " + credentials,
                                              "X-Limit-U": configuration["username"],
                                              "X-Limit-D": configuration["deviceId"]})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def link(driver, text):
    navigate(driver, next(a for a in driver.find_elements(By.LINK_TEXT, text) if a.is_displayed()))


def test_share_in_the_background_sets_up_owntracks_hears_from_it_and_revokes_it(plaza, browser):
    name = "ot" + uuid.uuid4().hex[:8]
    sign_up(browser, plaza, name, "Olga Tracks")
    tab(browser, "Places")
    link(browser, "Share in the background")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Share in the background"
    assert "Location sharing is off" in browser.find_element(By.CSS_SELECTOR, "[data-sharing-off]").text
    screenshot(browser, "owntracks-sharing-off")

    link(browser, "Turn sharing on in Location settings")
    click(browser, browser.find_element(By.CSS_SELECTOR, "input[name='level'][value='merchants']"))
    submit(browser, "Save")
    assert "saved" in notice(browser)
    link(browser, "Share in the background")
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-sharing-off]")
    assert "No phone connected yet." in browser.find_element(By.ID, "phones").text

    fill(browser, {"name": "Olga's phone"})
    submit(browser, "Create the OwnTracks setup")
    assert "shown only this once" in notice(browser)
    button = browser.find_element(By.CSS_SELECTOR, "[data-owntracks-link]")
    assert button.text == "Open in OwnTracks" and button.is_displayed()
    qr = browser.find_element(By.CSS_SELECTOR, "#setup .qr")
    assert qr.get_attribute("role") == "img" and "OwnTracks" in qr.get_attribute("aria-label")
    assert qr.find_element(By.TAG_NAME, "svg").size["width"] > 100
    screenshot(browser, "owntracks-setup")

    configuration = configuration_in(button.get_attribute("href"))
    # The QR's text twin holds the same setup.
    twin = browser.find_element(By.CSS_SELECTOR, "[data-owntracks-config]").get_attribute("textContent")
    assert configuration_in(twin) == configuration
    assert configuration["_type"] == "configuration" and configuration["mode"] == 3 and configuration["auth"] is True
    assert configuration["username"] == name and configuration["url"].endswith("/v1/owntracks")
    assert configuration["monitoring"] == 1 and configuration["locatorInterval"] == 300
    assert configuration["deviceId"] == "olga-s-phone" and len(configuration["tid"]) == 2

    phone = browser.find_element(By.CSS_SELECTOR, "#phones [data-phone]")
    assert "Olga's phone" in phone.text and "Not heard from yet" in phone.text
    # The secret is shown once: a reload shows the phone, not its setup.
    browser.refresh()
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-owntracks-link]")
    assert configuration["password"] not in browser.page_source

    assert post_location(configuration) == (200, "[]")
    browser.refresh()
    heard = browser.find_element(By.CSS_SELECTOR, "#phones [data-heard]").text
    assert heard.startswith("Last heard from") and "Not heard" not in heard, heard
    browser.execute_script("document.getElementById('phones').scrollIntoView({block: 'center'})")
    screenshot(browser, "owntracks-heard")

    browser.execute_script("window.__plazaLeaving = true")
    click(browser, browser.find_element(By.XPATH, "//section[@id='phones']//button[normalize-space()='Revoke']"))
    WebDriverWait(browser, 5).until(expected_conditions.alert_is_present())
    browser.switch_to.alert.accept()
    WebDriverWait(browser, 10, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.execute_script("return window.__plazaLeaving === undefined && document.readyState === 'complete'"))
    assert "no longer accepts" in notice(browser)
    assert "No phone connected yet." in browser.find_element(By.ID, "phones").text
    status, body = post_location(configuration)
    assert status == 401 and "revoked" in json.loads(body)["title"], body
    browser.execute_script("document.getElementById('phones').scrollIntoView({block: 'center'})")
    screenshot(browser, "owntracks-revoked")
