"""Issue 41: the pseudo-locale en-XA (every catalogue letter accented, every text a third longer) finds English that
skipped the catalogue and text that overflows at 360 px. A page's English outside user data fails the test; user data
(names, shops, what people typed) sits inside `translate="no"`, as HTML means it, and code (`<code>`, `<pre>`) is code
in every language. The API reference's texts come from the English contract (`lang="en"`); its frame is translated.

The pages checked grow as each domain's words move into the catalogue: PAGES lists the ones that are done."""
import re

import pytest
from selenium.webdriver.common.by import By

from conftest import new_browser, screenshot
from test_accounts_flow import navigate, submit
from test_places_flow import log_in

# Signed out, then signed in as the demo's customer.
PAGES = ["/", "/login", "/signup", "/forgot-password", "/reset-password", "/verify-email", "/language", "/places/map",
         "/docs/api"]

# Each role's pages, signed in (the ones a role reaches without an id in the path; the journeys' tests reach the rest).
SIGNED_IN = {
    ("anna", "demo-anna-2026"): ["/", "/wallet", "/wallet/send", "/wallet/request", "/wallet/add-money",
                                 "/wallet/withdraw", "/wallet/my-qr", "/places", "/places/settings",
                                 "/places/background", "/offers", "/offers/settings", "/loyalty", "/inbox", "/account",
                                 "/account/security", "/account/notifications", "/cards/orders", "/cards/designs",
                                 "/cards/cart", "/market", "/loyalty >> [data-loyalty-cards] a.row-link"],
    ("ella", "demo-ella-2026"): ["/market", "/market/you", "/market/sell", "/market/conversations",
                                 "/market/users/ella", "/market/agreement",
                                 "/market >> main a[href^='/market/listings/']"],
    ("bruno", "demo-bruno-2026"): ["/places/mine", "/places/new",
                                   "/places/mine >> main a[href^='/wallet/counter/']",
                                   "/places/mine >> main a[href^='/loyalty/counter/']",
                                   "/places/mine >> main a[href^='/offers/businesses/']"],
    ("dana", "demo-dana-2026"): ["/cards/studio/sales"],
    ("admin", "demo-admin-2026"): ["/admin/users", "/admin/backups", "/admin/users >> main a[href^='/admin/users/']"],
}

# What the demo's people made (names, shops, programs, listings): user data, in whatever language they wrote it. The
# pages mark it `translate="no"` where it stands alone; inside a sentence of ours ("Hi Anna Customer") it is a value.
DEMO_DATA = ["Anna Customer", "Bruno's Bakery", "Coffee card", "A coffee", "Carla Friend", "Pizza night", "Finn Weber",
             "Ella Park", "Visa", "Apple strudel", "Croissant", "Pretzel", "Sourdough loaf", "Cappuccino", "Coffee", "Textbooks"]

# Words that are the same in every language: the product, the standards the footer links to, currency codes, and
# the month and day names that dates take from the reader's locale (en-XA has none of its own, so English's).
MONTHS = "January February March April May June July August September October November December"
DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday"
KEPT = ({"Plaza", "API", "OpenAPI", "USD", "EUR", "UTC", "GMT", "CVC", "CSV", "PDF", "OwnTracks", "localhost"} | set(MONTHS.split()) | set(DAYS.split())
        | {name[:3] for name in (MONTHS + " " + DAYS).split()} | {"Sept"})

ENGLISH_LEFT = """
    const kept = new Set(arguments[0]);
    const data = arguments[1] || [];
    const ours = (text) => data.reduce((rest, name) => rest.split(name).join(' '), text).replace(/@[A-Za-z0-9_.]+/g, '');
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.closest('[translate="no"], script, style, svg, [hidden], code, pre, kbd, samp, noscript')) continue;
        if (getComputedStyle(parent).display === 'none') continue;
        // A handle (@anna) is a name, whatever the language.
        for (const word of ours(node.textContent).match(/[A-Za-z]{3,}/g) || []) {
            if (!kept.has(word)) found.push(word + ' in <' + parent.tagName.toLowerCase() + '>: ' + node.textContent.trim().slice(0, 80));
        }
    }
    for (const element of document.querySelectorAll('[aria-label], [placeholder], [title], input[type=submit][value]')) {
        if (element.closest('[translate="no"]')) continue;
        for (const name of ['aria-label', 'placeholder', 'title', 'value']) {
            if (name === 'value' && element.type !== 'submit') continue;
            for (const word of ours(element.getAttribute(name) || '').match(/[A-Za-z]{3,}/g) || []) {
                if (!kept.has(word)) found.push(word + ' in ' + name + ': ' + element.getAttribute(name).slice(0, 80));
            }
        }
    }
    return found.slice(0, arguments[2] || 20);
"""


def choose_pseudo(driver, plaza):
    driver.get(plaza + "/language")
    driver.find_element(By.CSS_SELECTOR, "input[name=language][value='en-XA']").click()
    navigate(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/language'] button[type=submit]"))
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en-XA"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_translated_pages_leave_no_english_and_fit_the_phone(town, size):
    plaza = town
    driver = new_browser(size)
    try:
        choose_pseudo(driver, plaza)
        for path in PAGES:
            driver.get(plaza + path)
            assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en-XA", path
            left = driver.execute_script(ENGLISH_LEFT, sorted(KEPT))
            assert not left, f"{path} still says in English: {left}"
            screenshot(driver, "pseudo-" + (re.sub(r"[^a-z]+", "-", path).strip("-") or "home"))
        # Signed in, each role's pages.
        for (login, password), paths in SIGNED_IN.items():
            driver.delete_all_cookies()
            log_in(driver, plaza, login, password)
            choose_pseudo(driver, plaza)
            try:
                for path in paths:
                    # "/loyalty >> selector": the page the first such link of /loyalty leads to (an id in its path).
                    path, _, link = path.partition(" >> ")
                    driver.get(plaza + path)
                    if link:
                        path = driver.find_element(By.CSS_SELECTOR, link).get_attribute("href").replace(plaza, "")
                        driver.get(plaza + path)
                    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en-XA", path
                    left = driver.execute_script(ENGLISH_LEFT, sorted(KEPT), DEMO_DATA)
                    assert not left, f"{path}, signed in as {login}, still says in English: {left}"
                    screenshot(driver, f"pseudo-{login}-" + (re.sub(r"[^a-z]+", "-", path).strip("-") or "home"))
            finally:
                # The account speaks English again, for the other tests sharing this demo.
                driver.get(plaza + "/language")
                driver.find_element(By.CSS_SELECTOR, "input[name=language][value='en']").click()
                navigate(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/language'] button[type=submit]"))
        driver.delete_all_cookies()
        choose_pseudo(driver, plaza)
        # Back to English: the same page, the language page's own words.
        driver.get(plaza + "/language")
        driver.find_element(By.CSS_SELECTOR, "input[name=language][value='en']").click()
        submit(driver, "Šáṽé ··")
        assert driver.find_element(By.CSS_SELECTOR, ".notice").text == "Plaza now speaks English."
    finally:
        driver.quit()


# Arabic covers the shell, home, the wallet and the inbox (issue 41's "at least"): signed in, these speak Arabic.
ARABIC = ["/", "/wallet", "/wallet/send", "/wallet/request", "/inbox"]


def test_arabic_mirrors_the_layout(town):
    plaza = town
    driver = new_browser("phone")
    try:
        driver.get(plaza + "/language")
        driver.find_element(By.CSS_SELECTOR, "input[name=language][value='ar']").click()
        navigate(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/language'] button[type=submit]"))
        html = driver.find_element(By.TAG_NAME, "html")
        assert html.get_attribute("dir") == "rtl" and html.get_attribute("lang") == "ar"
        driver.get(plaza + "/")
        # The brand sits at the right edge and the hero's text starts there too.
        brand = driver.find_element(By.CSS_SELECTOR, "header .brand").rect
        assert brand["x"] + brand["width"] > 360 / 2, brand
        assert driver.execute_script("return getComputedStyle(document.querySelector('.hero p')).direction") == "rtl"
        screenshot(driver, "arabic-home")
        # Signed in (from an English log-in page), the account takes Arabic: home, the wallet and the inbox leave no
        # English.
        driver.delete_all_cookies()
        log_in(driver, plaza, "anna", "demo-anna-2026")
        driver.get(plaza + "/language")
        driver.find_element(By.CSS_SELECTOR, "input[name=language][value='ar']").click()
        navigate(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/language'] button[type=submit]"))
        for path in ARABIC:
            driver.get(plaza + path)
            assert driver.find_element(By.TAG_NAME, "html").get_attribute("dir") == "rtl", path
            left = driver.execute_script(ENGLISH_LEFT, sorted(KEPT), DEMO_DATA)
            assert not left, f"{path} in Arabic still says in English: {left}"
            screenshot(driver, "arabic-" + (re.sub(r"[^a-z]+", "-", path).strip("-") or "home"))
    finally:
        driver.quit()
