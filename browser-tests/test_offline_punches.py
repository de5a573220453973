"""Issue 40: punching a loyalty card while the phone is offline. The card page hands the punch to the service worker,
which keeps it sealed in IndexedDB; the page says it waits; back online it is sent, counted once, and the card shows it.
Chromium's network emulation takes the page offline (navigator.onLine false, its fetches fail); it does not reach the
service worker, so Plaza itself is paused meanwhile (SIGSTOP): the worker's own tries wait as they would on a phone
with no signal."""
import json
import os
import signal
import urllib.request
import uuid

import pytest
from selenium.webdriver.common.by import By

from conftest import free_port, screenshot, start_demo, stop
from test_accounts_flow import fill, navigate, notice, submit
from test_places_flow import log_in, wait_for


def api(base, method, path, token=None, body=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None)
    request.add_header("Content-Type", "application/json")
    request.add_header("Idempotency-Key", str(uuid.uuid4()))
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=20) as response:
        return json.loads(response.read() or b"null")


def bearer(base, login, password):
    return api(base, "POST", "/v1/auth/login", body={"login": login, "password": password})["accessToken"]


def offline(driver, on):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": on, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait_for(driver, lambda: driver.execute_script("return navigator.onLine") == (not on))


@pytest.fixture(scope="module")
def shop():
    port = free_port()
    server, workdir = start_demo(port)
    yield f"http://127.0.0.1:{port}", server
    stop(server, workdir)


def punches(driver):
    """The card's "2 of 5", read again if the live region redrew meanwhile."""
    return wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "[data-punches]").text)


def offline_box(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-offline-punches]")


def test_a_punch_made_offline_is_kept_and_counted_once_back_online(shop, browser):
    plaza, server = shop
    bruno = bearer(plaza, "bruno", "demo-bruno-2026")
    business = next(item for item in api(plaza, "GET", "/v1/me/businesses", bruno)["items"]
                    if item["name"] == "Bruno's Bakery")
    location = business["locations"][0]["id"]
    program = api(plaza, "POST", f"/v1/businesses/{business['id']}/loyalty-programs", bruno, {
        "title": "Tea card " + uuid.uuid4().hex[:4], "punchesRequired": 5, "reward": "A pot of tea",
        "velocityWindowMinutes": 0})
    anna = bearer(plaza, "anna", "demo-anna-2026")
    card = api(plaza, "POST", f"/v1/loyalty-programs/{program['id']}/cards", anna)

    def counter_token():
        return api(plaza, "GET", f"/v1/businesses/{business['id']}/loyalty/punch-token?programId={program['id']}"
                   f"&locationId={location}", bruno)

    log_in(browser, plaza, "anna", "demo-anna-2026")
    browser.get(f"{plaza}/loyalty/cards/{card['id']}")
    # The service worker controls the page before the connection drops (it did on the first page already).
    wait_for(browser, lambda: browser.execute_script("return !!navigator.serviceWorker.controller"))
    assert punches(browser) == "0 of 5"

    typed, scanned = counter_token()["code"], counter_token()["token"]
    offline(browser, True)
    os.kill(server.pid, signal.SIGSTOP)
    try:
        # Typed digits, and a scanned code (the camera fills the form's hidden field and sends it, as scan.js does).
        fill(browser, {"code": typed})
        browser.find_element(By.XPATH, "//button[normalize-space()='Punch my card']").click()
        wait_for(browser, lambda: offline_box(browser).get_attribute("data-waiting") == "1")
        assert "kept on this phone" in offline_box(browser).text
        browser.execute_script(
            "const form = document.querySelector('[data-offline-punches]').closest('section').querySelector('form');"
            "form.elements.token.value = arguments[0]; form.requestSubmit();", scanned)
        wait_for(browser, lambda: offline_box(browser).get_attribute("data-waiting") == "2",
                 explain=lambda: offline_box(browser).text)
        shown = offline_box(browser).text
        assert "2 punches wait to sync." in shown and "Typed at" in shown and "Scanned at" in shown, shown
        # Kept sealed: IndexedDB holds no token or digits in the clear.
        stored = browser.execute_async_script("""
            const done = arguments[0];
            const opening = indexedDB.open('plaza-offline', 1);
            opening.onsuccess = () => {
              const all = opening.result.transaction('punches').objectStore('punches').getAll();
              all.onsuccess = () => done(JSON.stringify(all.result.map((r) => Object.keys(r).sort().join(','))));
            };""")
        assert json.loads(stored) == ["id,iv,owner,sealed", "id,iv,owner,sealed"], stored
        assert punches(browser) == "0 of 5"
        screenshot(browser, "loyalty-offline-waiting")
    finally:
        os.kill(server.pid, signal.SIGCONT)
        offline(browser, False)

    # Back online: both are sent and counted, once; the page says so and the card shows them.
    wait_for(browser, lambda: offline_box(browser).get_attribute("data-waiting") == "0"
             and "counted" in offline_box(browser).text, explain=lambda: offline_box(browser).text)
    wait_for(browser, lambda: punches(browser) == "2 of 5", explain=lambda: punches(browser))
    screenshot(browser, "loyalty-offline-synced")
    # Nothing is sent twice: a reload syncs again and the card stays at two.
    browser.refresh()
    wait_for(browser, lambda: int(offline_box(browser).get_attribute("data-synced") or 0) >= 1)
    assert api(plaza, "GET", f"/v1/me/loyalty-cards/{card['id']}", anna)["card"]["punches"] == 2
    assert punches(browser) == "2 of 5"

    # Online, the form posts as always.
    fill(browser, {"code": counter_token()["code"]})
    submit(browser, "Punch my card")
    assert "Punch counted: 3 of 5" in notice(browser)
