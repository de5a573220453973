"""Places as people use them: a customer shares from the browser and shows up, live, on the merchant's
presence page; leaving the shop or entering a private zone takes her off it. Every places page is looked at."""
import time

from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import new_browser, screenshot, settled
from test_accounts_flow import click, fill, navigate, submit, tab

# Bruno's Bakery in the demo: 40 m north and 60 m west of Marienplatz, radius 60 m.
BAKERY = (48.1377597, 11.5746936)
FAR_AWAY = (48.1420, 11.5800)


def log_in(driver, base, username, password):
    driver.get(base + "/login")
    fill(driver, {"login": username, "password": password})
    submit(driver, "Log in")


def place(driver, base, latitude, longitude):
    """Puts the browser (as the GPS would) at a point, with permission to read it."""
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": base, "permissions": ["geolocation"]})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": latitude, "longitude": longitude, "accuracy": 5})


def present(driver):
    return [item.get_attribute("data-username") for item in driver.find_elements(By.CSS_SELECTOR, "#presence li")]


def wait_for(driver, condition, seconds=10, explain=lambda: ""):
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.05, ignored_exceptions=(WebDriverException,)).until(lambda d: condition())
    except TimeoutException:
        raise AssertionError("timed out: " + explain())


def sent(driver):
    box = driver.find_element(By.CSS_SELECTOR, "[data-share-endpoint]")
    return int(box.get_attribute("data-sent") or 0)


def share_status(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-share-status]").text


def test_a_customer_sharing_from_the_browser_appears_live_and_goes(plaza):
    merchant = new_browser("desktop")
    customer = new_browser("phone")
    try:
        log_in(merchant, plaza, "bruno", "demo-bruno-2026")
        merchant.get(plaza + "/places/mine")
        # (Bruno's own display name is "Bruno's Bakery" too: the header links to his account, so look in the list.)
        navigate(merchant, merchant.find_element(By.XPATH, "//main//a[normalize-space()=\"Bruno's Bakery\"]"))
        navigate(merchant, merchant.find_element(By.LINK_TEXT, "Who is here now"))
        wait_for(merchant, lambda: merchant.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
        assert present(merchant) == []

        log_in(customer, plaza, "anna", "demo-anna-2026")
        customer.get(plaza + "/places/settings")
        click(customer, customer.find_element(By.CSS_SELECTOR, "input[name=level][value=merchants]"))
        submit(customer, "Save")
        assert "saved" in customer.find_element(By.CSS_SELECTOR, ".notice").text
        place(customer, plaza, *BAKERY)
        click(customer, customer.find_element(By.CSS_SELECTOR, "[data-share-toggle]"))
        started = time.monotonic()
        wait_for(customer, lambda: sent(customer) == 1, explain=lambda: share_status(customer))
        wait_for(merchant, lambda: present(merchant) == ["anna"], seconds=5)
        # How long it took is reported, not asserted: speed targets live in benchmarks (docs/benchmarks.md).
        print("\npresence latency (share click to merchant list): %.3f s" % (time.monotonic() - started))
        screenshot(merchant, "places-presence")
        screenshot(customer, "places-settings-sharing")

        # There, she reports the line from the bakery's page. A refused report comes back to that page (POST, redirect,
        # GET): the problem beside the field, and the weekday chips still lead somewhere.
        tab(customer, "Places")
        navigate(customer, customer.find_element(By.XPATH, "//main//a[contains(normalize-space(), \"Bruno's Bakery\")]"))
        fill(customer, {"minutes": "999"})
        submit(customer, "Report the line")
        assert "/places/businesses/" in customer.current_url and "line-waits" not in customer.current_url
        assert customer.find_element(By.ID, "minutes-error").text
        assert customer.find_element(By.ID, "minutes").get_attribute("value") == "999"
        screenshot(customer, "places-line-refused")
        navigate(customer, customer.find_elements(By.CSS_SELECTOR, "nav.days a")[0])
        assert "day=" in customer.current_url and customer.find_element(By.ID, "line-heading")

        # She walks away (back on the settings page, which shares as every page does): the list empties by itself.
        customer.get(plaza + "/places/settings")
        wait_for(customer, lambda: sent(customer) >= 1, explain=lambda: share_status(customer))
        before = sent(customer)
        place(customer, plaza, *FAR_AWAY)
        wait_for(customer, lambda: sent(customer) > before, explain=lambda: share_status(customer))
        wait_for(merchant, lambda: present(merchant) == [], seconds=5)

        # She comes back inside a private zone she draws around the shop: she stays off the list.
        fill(customer, {"name": "Work", "latitude": str(BAKERY[0]), "longitude": str(BAKERY[1]), "radiusMeters": "300"})
        submit(customer, "Add zone")
        assert "private zone was saved" in customer.find_element(By.CSS_SELECTOR, ".notice").text
        place(customer, plaza, BAKERY[0] + 0.0001, BAKERY[1])
        wait_for(customer, lambda: sent(customer) >= 1, explain=lambda: share_status(customer))
        time.sleep(1)
        assert present(merchant) == []
        screenshot(customer, "places-settings-zone")

        # She deletes the zone again (the shared demo's other journeys meet anna at the bakery).
        zone = next(row for row in customer.find_elements(By.CSS_SELECTOR, "#zones li") if row.text.startswith("Work"))
        navigate(customer, zone.find_element(By.XPATH, ".//button[normalize-space()='Delete']"))
        assert "Work" not in customer.find_element(By.ID, "zones").text
    finally:
        merchant.quit()
        customer.quit()


def test_every_places_page_renders(plaza, browser):
    browser.get(plaza + "/places")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Places near you"
    fill(browser, {"q": "bakery"})
    submit(browser, "Search")
    screenshot(browser, "places-nearby")
    navigate(browser, browser.find_element(By.XPATH, "//main//a[normalize-space()=\"Bruno's Bakery\"]"))
    assert browser.find_element(By.TAG_NAME, "h1").text == "Bruno's Bakery"
    # A Saturday, a day the demo bakery opens (on a Sunday, today's chart rightly has no visits to show).
    navigate(browser, browser.find_element(By.CSS_SELECTOR, "nav.days").find_element(By.LINK_TEXT, "Sat"))
    bars = browser.find_elements(By.CSS_SELECTOR, "svg.chart rect.bar")
    assert len(bars) == 18 and any("visits" in bar.find_element(By.TAG_NAME, "title").get_attribute("textContent") for bar in bars)
    # Its text twin: each hour in words, for a screen reader (the picture is one image to it).
    twin = browser.find_elements(By.CSS_SELECTOR, "[data-chart-twin] li")
    assert len(twin) == 18 and any("about" in line.get_attribute("textContent") for line in twin)
    assert "7 min" in browser.find_element(By.CSS_SELECTOR, ".big").text
    screenshot(browser, "places-business")

    browser.get(plaza + "/places/map")
    wait_for(browser, lambda: int(browser.find_element(By.ID, "map").get_attribute("data-features") or 0) >= 2)
    screenshot(browser, "places-map")

    log_in(browser, plaza, "bruno", "demo-bruno-2026")
    browser.get(plaza + "/places/mine")
    screenshot(browser, "places-mine")
    navigate(browser, browser.find_element(By.LINK_TEXT, "Edit"))
    form = browser.find_element(By.ID, "add-location")
    for name, value in {"name": "", "address": "x", "latitude": "91", "longitude": "11.5", "radiusMeters": "900"}.items():
        field = form.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)
    submit(browser, "Add location")
    errors = [element.text for element in browser.find_elements(By.CSS_SELECTOR, ".field-error")]
    assert any("-90 to 90" in text for text in errors) and any("10 to 500" in text for text in errors)
    screenshot(browser, "places-edit")

    # Change a location in place: its hours read back as they were written.
    click(browser, browser.find_element(By.XPATH, "//details/summary[normalize-space()='Edit']"))
    hours = browser.find_element(By.CSS_SELECTOR, "details[open] input[name=openingHours]")
    assert hours.get_attribute("value").startswith("Mon-")  # the demo's hours, or what the other width's run wrote
    opens = "06:30" if browser.size_name == "phone" else "07:30"
    hours.clear()
    hours.send_keys(f"Mon-Fri {opens}-18:00, Sat 08:00-13:00")
    submit(browser, "Save location")
    assert "location was saved" in browser.find_element(By.CSS_SELECTOR, ".notice").text
    navigate(browser, browser.find_element(By.LINK_TEXT, "Public page"))
    assert f"Mon–Fri {opens}–18:00, Sat 08:00–13:00" in browser.find_element(By.TAG_NAME, "main").text


def map_state(driver):
    return driver.find_element(By.ID, "map").get_attribute("data-loads") or "0"


def test_the_map_keeps_its_popup_lists_its_shops_and_shows_where_you_are(plaza, browser):
    """Issue 39: a popup closed by itself at the next refresh, popups near an edge were clipped, every shop said "Not
    enough data yet" though its page showed weeks of visits, there was no "you are here" and no list of the map."""
    # She stands about 300 m south of the bakery: centred on her, the bakery sits near the map's top edge.
    place(browser, plaza, BAKERY[0] - 0.0027, BAKERY[1])
    browser.get(plaza + "/places")
    navigate(browser, browser.find_element(By.LINK_TEXT, "Open the map"))
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-map-locate]"))
    wait_for(browser, lambda: browser.find_element(By.ID, "map").get_attribute("data-you"),
             explain=lambda: browser.find_element(By.CSS_SELECTOR, "[data-map-locate-status]").text)
    assert browser.find_elements(By.CSS_SELECTOR, "#map path.pm-you")
    assert "You are here" in browser.find_element(By.ID, "map").text

    # The list beside the map: each shop with its distance from her, open or closed, and how busy, in words.
    rows = lambda: browser.find_elements(By.CSS_SELECTOR, "#map-list li[data-map-place]")
    wait_for(browser, lambda: len(rows()) >= 2 and "from the map" not in rows()[0].text,
             explain=lambda: browser.find_element(By.ID, "map-list").text)
    bakery = settled(lambda: next(text for text in (row.text for row in rows()) if "Bruno's Bakery" in text))
    assert " m" in bakery and ("Open now" in bakery or "Closed" in bakery), bakery
    assert "nearest to you first" in browser.find_element(By.CSS_SELECTOR, "[data-map-list-count]").text
    map_box = browser.find_element(By.ID, "map").rect
    list_box = browser.find_element(By.ID, "map-list").rect
    if browser.size_name == "phone":
        assert list_box["y"] >= map_box["y"] + map_box["height"] - 1, (map_box, list_box)
    else:
        assert list_box["x"] >= map_box["x"] + map_box["width"] - 1, (map_box, list_box)
    words = bakery.split("\n")[-1]

    # Its popup opens whole inside the map (panned into view), and stays open through two refreshes.
    # A click landing while the map still glides to her (after "Use my location") can be swallowed: like a person,
    # the test taps again when no popup came, finding the marker afresh each time.
    popup = lambda: browser.find_elements(By.CSS_SELECTOR, "#map .leaflet-popup")
    def opened():
        if popup() and "Bruno's Bakery" in popup()[0].text:
            return True
        markers = browser.find_elements(By.CSS_SELECTOR, "#map .leaflet-marker-icon[title=\"Bruno's Bakery\"]")
        if markers:
            browser.execute_script("arguments[0].click()", markers[0])
            time.sleep(0.5)
        return False
    wait_for(browser, opened, seconds=20, explain=lambda: "popups: %r, markers: %d" % (
        [p.text for p in popup()], len(browser.find_elements(By.CSS_SELECTOR, "#map .leaflet-marker-icon"))))
    loads = int(map_state(browser))
    wait_for(browser, lambda: int(map_state(browser)) >= loads + 2, seconds=30)
    assert popup() and "Bruno's Bakery" in popup()[0].text, "the popup closed at a refresh"
    wait_for(browser, lambda: (lambda box, frame: box["y"] >= frame["y"] - 1 and box["y"] + box["height"] <= frame["y"] + frame["height"] + 1)(
        browser.find_element(By.CSS_SELECTOR, "#map .leaflet-popup-content-wrapper").rect, browser.find_element(By.ID, "map").rect))
    screenshot(browser, "places-map-list")

    # How busy the map says it is agrees with the bakery's own page (the same popular times, the same words).
    navigate(browser, popup()[0].find_element(By.LINK_TEXT, "Bruno's Bakery"))
    page = browser.find_element(By.CSS_SELECTOR, "section[aria-labelledby=popular-heading]").text
    if words.startswith("Usually") or "Usually" in words:
        usual = words[words.index("Usually"):].split(" · ")[0]
        assert usual + "." in page, (words, page)
    else:
        assert "Not enough data yet" in words and "Live: not enough data." in page, (words, page)


def install_geolocation_stand_in(driver, mode):
    """What a real phone does that Chromium's emulation does not: `watch-conflict`, a high-accuracy request made while
    a watch runs times out; `no-high`, a high-accuracy request finds nothing (no GPS indoors)."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        (() => {
          const geo = navigator.geolocation, ask = geo.getCurrentPosition.bind(geo), watch = geo.watchPosition.bind(geo);
          let watching = 0;
          const asked = (kind) => sessionStorage.setItem("geoAsked", (sessionStorage.getItem("geoAsked") || "") + kind + " ");
          geo.watchPosition = (...args) => { watching += 1; return watch(...args); };
          geo.getCurrentPosition = (ok, fail, options) => {
            const high = !!(options && options.enableHighAccuracy);
            asked(high ? "high" : "low");
            const mode = "%s";
            if (high && (mode === "no-high" || (mode === "watch-conflict" && watching))) {
              setTimeout(() => fail({ code: mode === "no-high" ? 2 : 3, message: "stand-in" }), 50);
              return;
            }
            ask(ok, fail, options);
          };
        })();
    """ % mode})


def test_use_my_location_works_while_sharing_and_says_what_went_wrong(plaza, browser):
    """Issue 39: "Use my location" ended in "Location unavailable" while sharing was on."""
    install_geolocation_stand_in(browser, "watch-conflict")
    log_in(browser, plaza, "carla", "demo-carla-2026")
    browser.get(plaza + "/places/settings")
    click(browser, browser.find_element(By.CSS_SELECTOR, "input[name=level][value=merchants]"))
    submit(browser, "Save")
    place(browser, plaza, *FAR_AWAY)
    if sent(browser) == 0 and "Stop" not in browser.find_element(By.CSS_SELECTOR, "[data-share-toggle]").text:
        click(browser, browser.find_element(By.CSS_SELECTOR, "[data-share-toggle]"))
    wait_for(browser, lambda: sent(browser) >= 1, explain=lambda: share_status(browser))
    # Sharing runs on every page: Places uses its fix.
    tab(browser, "Places")
    wait_for(browser, lambda: browser.execute_script("return !!window.plazaFix"))
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-locate]"))
    wait_for(browser, lambda: "latitude=48.142" in browser.current_url,
             explain=lambda: browser.find_element(By.CSS_SELECTOR, "[data-locate-status]").text)
    assert browser.find_element(By.ID, "nearby-latitude").get_attribute("value").startswith("48.142")
    # No second request raced the sharing watch.
    assert not browser.execute_script("return sessionStorage.getItem('geoAsked')")
    screenshot(browser, "places-use-my-location")
    browser.execute_script("localStorage.removeItem('plaza-share')")


def test_use_my_location_falls_back_to_low_accuracy_and_names_a_refusal(plaza, browser):
    install_geolocation_stand_in(browser, "no-high")
    place(browser, plaza, *BAKERY)
    browser.get(plaza + "/places")
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-locate]"))
    wait_for(browser, lambda: "latitude=48.137" in browser.current_url,
             explain=lambda: browser.find_element(By.CSS_SELECTOR, "[data-locate-status]").text)
    # High accuracy found nothing; the second, low-accuracy request did.
    assert browser.execute_script("return sessionStorage.getItem('geoAsked')") == "high low "

    # Permission refused: the page says so, and what to do.
    browser.execute_cdp_cmd("Browser.setPermission", {"origin": plaza, "permission": {"name": "geolocation"}, "setting": "denied"})
    browser.get(plaza + "/places")
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-locate]"))
    status = lambda: browser.find_element(By.CSS_SELECTOR, "[data-locate-status]").text
    wait_for(browser, lambda: "allow it for this site" in status(), explain=status)
    assert "Location unavailable" not in status()
    screenshot(browser, "places-location-refused")
