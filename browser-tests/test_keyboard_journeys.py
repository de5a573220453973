"""Issue 41: the journeys done with the keyboard alone, no mouse. Focus moves with Tab (and Shift+Tab), fields are typed
into where focus is, and Enter or Space acts. Every stop on the way must show where focus is (an outline or a ring), and
the wanted control must be reachable by Tab within a bound: that proves there is no trap and that the order is sane."""
import os
import uuid

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from accessibility import check
from conftest import latest_code, new_browser, screenshot
from test_accounts_flow import PASSWORD, notice
from test_places_flow import wait_for

# What identifies the focused element in a failure, and whether a person can see focus on it.
DESCRIBE = """
    const e = document.activeElement;
    if (!e || e === document.body) return {tag: 'body', text: '', visible: true, seen: 'body'};
    const style = getComputedStyle(e);
    const shows = (x) => {
        const s = getComputedStyle(x);
        return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 && s.outlineColor !== 'rgba(0, 0, 0, 0)')
            || (s.boxShadow && s.boxShadow !== 'none');
    };
    // A control drawn by something else (a file input hidden behind its label, a radio behind its swatch) shows
    // focus there: its ring on the 1 px input itself would be seen by no one.
    const box = e.getBoundingClientRect();
    const unseen = box.width < 4 || box.height < 4 || parseFloat(style.opacity) === 0
        || (style.position === 'absolute' && style.clip !== 'auto') || style.clipPath !== 'none';
    const stand = unseen ? [...(e.labels || []), e.nextElementSibling].filter(Boolean) : [e];
    const ring = stand.some(shows);
    // Nor may the phone's bottom tab bar cover the focused control.
    const r = stand[0] ? stand[0].getBoundingClientRect() : box;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const covered = !!(hit && hit.closest('nav.tabs') && !e.closest('nav.tabs'));
    const label = (e.getAttribute('aria-label') || e.innerText || e.value || e.name || e.placeholder || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return {tag: e.tagName.toLowerCase(), id: e.id, name: e.getAttribute('name') || '', type: e.getAttribute('type') || '',
            href: e.getAttribute('href') || '', text: label, visible: ring && !covered, covered,
            context: ((e.closest('[data-loyalty-program], [data-town-offer], [data-review-item], li, article, section') || {}).innerText || '').slice(0, 300),
            seen: e.tagName.toLowerCase() + (e.getAttribute('name') ? '[' + e.getAttribute('name') + ']' : '') + ' "' + label + '"'};
"""


def axe_clean(driver, state):
    """axe-core in a state the crawl never reaches (issue 41): no serious or critical finding."""
    found = check(driver)
    assert not found, f"{state}: " + "; ".join(f"{rule} ({impact}) at {targets}: {help}" for rule, impact, targets, help in found)


def focused(driver):
    """The focused element described (tag, name, type, href, text) and whether its focus is visible."""
    return driver.execute_script(DESCRIBE)


def press(driver, *keys):
    ActionChains(driver).send_keys(*keys).perform()


def tab_to(driver, predicate, limit=60, backwards=False):
    """Presses Tab (or Shift+Tab) until `predicate(described)` holds for the focused element; each stop must show its
    focus. Fails with the stops it visited when the control never comes (a trap, or a control Tab cannot reach)."""
    visited = []
    for _ in range(limit):
        if backwards:
            ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        else:
            press(driver, Keys.TAB)
        here = focused(driver)
        visited.append(here["seen"])
        if here["tag"] != "body":
            assert here["visible"], f"focus is invisible{' (under the tab bar)' if here['covered'] else ''} on {here['seen']} at {driver.current_url}"
        if predicate(here):
            return here
    raise AssertionError(f"Tab never reached the control on {driver.current_url}; visited: {visited}")


def field(name):
    return lambda e: e["name"] == name and e["tag"] in ("input", "select", "textarea")


def button(text):
    return lambda e: e["tag"] in ("button", "summary") and e["text"] == text or (e["tag"] == "input" and e["type"] == "submit" and e["text"] == text)


def link(text):
    return lambda e: e["tag"] == "a" and e["text"].startswith(text)


def leaving(driver):
    driver.execute_script("window.__plazaLeaving = true")


def arrived(driver):
    WebDriverWait(driver, 10, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.execute_script("return window.__plazaLeaving === undefined && document.readyState === 'complete'"))


def activate(driver, key=Keys.ENTER):
    """Presses Enter (or Space) on the focused control and waits for the page it leads to."""
    leaving(driver)
    press(driver, key)
    arrived(driver)


def type_into(driver, name, text):
    """Tabs to the field `name` and types `text` into it (replacing what it held)."""
    tab_to(driver, field(name))
    active = driver.switch_to.active_element
    active.send_keys(Keys.CONTROL, "a")
    active.send_keys(Keys.DELETE)
    active.send_keys(text)


def type_into_next(driver, name, text):
    """Types into the field `name`, which must be the very next stop after the focused one."""
    tab_to(driver, field(name), limit=1)
    driver.switch_to.active_element.send_keys(text)


def start(driver, url):
    """Opens a page as a person does from the address bar; focus starts at the top of the page."""
    driver.get(url)


def go(driver, predicate, key=Keys.ENTER, limit=60):
    """Tabs to a link or button and follows it with Enter."""
    tab_to(driver, predicate, limit)
    activate(driver, key)


def tab_bar(driver, name):
    """Follows a main navigation entry by keyboard (the bottom tab bar on phones, the top bar on desktops)."""
    visible = driver.execute_script(
        "return [...document.querySelectorAll('nav.tabs a')].filter(a => a.offsetParent !== null).map(a => a.getAttribute('href'))")
    go(driver, lambda e: e["tag"] == "a" and e["href"] in visible and e["text"].startswith(name), limit=120)


def sign_up(driver, base, prefix="k"):
    """A new person, signed up and verified by keyboard alone; returns the username."""
    name = prefix + uuid.uuid4().hex[:10]
    email = f"{name}@example.com"
    start(driver, base + "/")
    go(driver, link("Create an account"))
    assert driver.current_url.endswith("/signup")
    type_into(driver, "email", email)
    # The fields follow one another as they read: one Tab each, and Shift+Tab goes back the same way.
    type_into_next(driver, "username", name)
    type_into_next(driver, "displayName", "Keyboard Tester")
    type_into_next(driver, "password", PASSWORD)
    tab_to(driver, field("displayName"), limit=1, backwards=True)
    tab_to(driver, field("username"), limit=1, backwards=True)
    go(driver, button("Sign up"))
    assert "/verify-email" in driver.current_url, driver.current_url
    type_into(driver, "code", latest_code(base, email))
    # Enter in the field sends its form, as in any form.
    activate(driver)
    assert driver.current_url.endswith("/?notice=welcome"), driver.current_url
    return name


def log_in(driver, base, username, password):
    start(driver, base + "/login")
    type_into(driver, "login", username)
    type_into(driver, "password", password)
    go(driver, button("Log in"))
    assert "/login" not in driver.current_url, driver.current_url


@pytest.fixture
def keyboard(browser):
    """The conftest's browser (a phone at 360 px with the bottom tab bar, a desktop at 1280 px), used by keyboard alone."""
    return browser


def test_sign_up_and_verify(plaza, keyboard):
    name = sign_up(keyboard, plaza)
    assert "Welcome to Plaza" in notice(keyboard)
    tab_bar(keyboard, "Account")
    assert "@" + name in keyboard.page_source
    screenshot(keyboard, "keyboard-signup")


def headline(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-headline]").text


def add_money(driver, amount):
    """Adds money with the sandbox's test card, by keyboard, from the wallet."""
    tab_bar(driver, "Wallet")
    go(driver, link("Add money"))
    type_into(driver, "amount", amount)
    type_into(driver, "number", "4242 4242 4242 4242")
    type_into(driver, "expiry", "1234")
    type_into(driver, "cvc", "123")
    go(driver, button("Add money"))
    wait_for(driver, lambda: headline(driver) == f"Added ${amount}.00 to your balance ✓", explain=lambda: headline(driver))


def test_pay_a_friend(plaza, keyboard):
    sign_up(keyboard, plaza, "p")
    add_money(keyboard, "20")
    tab_bar(keyboard, "Wallet")
    go(keyboard, link("Pay"))
    # The payee field suggests people as one types; Tab leaves it with what was typed.
    type_into(keyboard, "to", "@anna")
    type_into(keyboard, "amount", "5.00")
    type_into(keyboard, "note", "Keyboard coffee")
    go(keyboard, button("Review"))
    confirm = keyboard.find_element(By.CSS_SELECTOR, ".confirm").text
    axe_clean(keyboard, "the payment filled in, to confirm")
    assert "Anna Customer" in confirm and "$5.00" in confirm and "Keyboard coffee" in confirm, confirm
    go(keyboard, button("Send $5.00"))
    assert headline(keyboard) == "You sent $5.00 to Anna C. ✓"
    screenshot(keyboard, "keyboard-pay")
    go(keyboard, link("Done"))
    assert keyboard.find_element(By.CSS_SELECTOR, "[data-balance]").text == "$15.00"


def charge_from_the_bakery(base, code, amount, description):
    """Bruno's counter asks the customer whose pay code is `code` to pay (his own browser, with the mouse: only the customer's side is by keyboard)."""
    from test_accounts_flow import click, navigate
    from test_places_flow import log_in as mouse_log_in
    from test_wallet_flow import fill_in
    merchant = new_browser("desktop")
    try:
        mouse_log_in(merchant, base, "bruno", "demo-bruno-2026")
        merchant.get(base + "/places/mine")
        bakery = merchant.find_element(By.XPATH, "//main//li[contains(., \"Bruno's Bakery\")]")
        navigate(merchant, bakery.find_element(By.LINK_TEXT, "Counter"))
        fill_in(merchant, "charge-form", {"payCode": code, "amount": amount, "description": description})
        click(merchant, merchant.find_element(By.XPATH, "//button[normalize-space()='Ask to pay']"))
        wait_for(merchant, lambda: "$" + amount in merchant.find_element(By.ID, "counter").text,
                 explain=lambda: merchant.find_element(By.CSS_SELECTOR, "[data-async-status]").text + " | " + merchant.find_element(By.ID, "counter").text)
    finally:
        merchant.quit()


def test_approve_a_waiting_charge(plaza, keyboard):
    sign_up(keyboard, plaza, "c")
    add_money(keyboard, "10")
    # She is not sharing where she is: she shows the counter a pay code.
    tab_bar(keyboard, "Wallet")
    go(keyboard, button("Show a pay code"))
    code = keyboard.find_element(By.CSS_SELECTOR, "[data-paycode]").text.replace("Your pay code:", "").strip()
    charge_from_the_bakery(plaza, code, "3.50", "Keyboard pretzel")
    # The home screen leads to the charge waiting.
    tab_bar(keyboard, "Home")
    wait_for(keyboard, lambda: keyboard.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
    go(keyboard, link("Review and pay"))
    wait_for(keyboard, lambda: "Keyboard pretzel" in keyboard.find_element(By.ID, "charges").text,
             explain=lambda: keyboard.find_element(By.ID, "charges").text)
    axe_clean(keyboard, "a charge arrived live")
    tab_to(keyboard, button("Pay $3.50"))
    press(keyboard, Keys.ENTER)
    wait_for(keyboard, lambda: keyboard.find_element(By.CSS_SELECTOR, "[data-async-done]").text == "Paid Bruno's Bakery $3.50 ✓")
    wait_for(keyboard, lambda: not keyboard.find_elements(By.CSS_SELECTOR, "#charges article.charge"))
    # The button she pressed went with the charge: focus lands on what happened, not on the page's start.
    here = focused(keyboard)
    assert here["tag"] != "body", "focus was lost when the charge was paid"
    assert here["visible"], here
    screenshot(keyboard, "keyboard-charge")
    # From there, Tab goes on to the receipt of what she paid.
    go(keyboard, link("Receipt"))
    assert "Keyboard pretzel" in keyboard.find_element(By.CSS_SELECTOR, ".receipt").text


def bakery_program(base, title):
    """A loyalty program of Bruno's Bakery, and a function giving the six digits its counter shows now (the counter's
    own screen, through the API: only the customer's side is by keyboard)."""
    from test_offer_report_flow import api, token
    bruno = token(base, "bruno", "demo-bruno-2026")
    bakery = next(b for b in api(base, "GET", "/v1/me/businesses", token=bruno)["items"] if b["name"] == "Bruno's Bakery")
    program = api(base, "POST", f"/v1/businesses/{bakery['id']}/loyalty-programs",
                  {"title": title, "punchesRequired": 8, "reward": "A keyboard pretzel"}, token=bruno)
    location = api(base, "GET", f"/v1/businesses/{bakery['id']}", token=bruno)["locations"][0]["id"]
    return lambda: api(base, "GET", f"/v1/businesses/{bakery['id']}/loyalty/punch-token?programId={program['id']}"
                                    f"&locationId={location}", token=bruno)["code"]


def test_take_a_loyalty_card_and_punch_it(plaza, keyboard):
    title = "Keyboard card " + uuid.uuid4().hex[:4]
    counter_code = bakery_program(plaza, title)
    sign_up(keyboard, plaza, "l")
    # She finds the bakery from Places, by its name.
    tab_bar(keyboard, "Places")
    type_into(keyboard, "q", "bruno")
    activate(keyboard)
    go(keyboard, link("Bruno's Bakery"))
    # Among the bakery's programs, the button of this one.
    tab_to(keyboard, lambda e: button("Take this card")(e) and title in e["context"], limit=80)
    activate(keyboard)
    assert "The card is yours" in notice(keyboard)
    type_into(keyboard, "code", counter_code())
    activate(keyboard)
    assert "Punch counted: 1 of 8" in notice(keyboard)
    screenshot(keyboard, "keyboard-loyalty")


def bakery_coupon(base, title, approve=True):
    """A coupon of Bruno's Bakery through the API, handed out by hand only (it reaches no one by itself): submitted for
    review, and approved by the admin unless `approve` is false (it waits in the admin's queue then)."""
    from datetime import datetime, timedelta, timezone
    from test_offer_report_flow import api, running_coupon, token
    if approve:
        return running_coupon(base, title)
    bruno = token(base, "bruno", "demo-bruno-2026")
    bakery = next(b for b in api(base, "GET", "/v1/me/businesses", token=bruno)["items"] if b["name"] == "Bruno's Bakery")
    now = datetime.now(timezone.utc)
    stamp = lambda moment: moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    campaign = api(base, "POST", f"/v1/businesses/{bakery['id']}/campaigns", {
        "kind": "coupon", "title": title, "body": "A free roll with any coffee, typed by keyboard.",
        "startsAt": stamp(now - timedelta(minutes=1)), "endsAt": stamp(now + timedelta(days=3)),
        "delivery": ["manual"], "discount": {"percentOff": 10}, "totalRedemptions": 20,
    }, token=bruno)
    api(base, "POST", f"/v1/campaigns/{campaign['id']}/submit", token=bruno)
    return campaign["id"].lower()


def live(driver):
    wait_for(driver, lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")


def test_claim_a_coupon(plaza, keyboard):
    title = "Keyboard rolls " + uuid.uuid4().hex[:4]
    campaign = bakery_coupon(plaza, title)
    sign_up(keyboard, plaza, "o")
    # Offers are reached from the home screen; the town's offers need no opting in.
    go(keyboard, link("Offers"))
    go(keyboard, link("In town"))
    live(keyboard)
    tab_to(keyboard, lambda e: button("Claim this coupon")(e) and title in e["context"], limit=100)
    activate(keyboard)
    assert f"/offers/{campaign}" in keyboard.current_url, keyboard.current_url
    assert "Claimed" in notice(keyboard)
    assert len(keyboard.find_element(By.CSS_SELECTOR, "[data-claim-code]").text) == 8
    screenshot(keyboard, "keyboard-coupon")


def test_decide_an_item_in_the_admins_queue(plaza, keyboard):
    title = "Keyboard review " + uuid.uuid4().hex[:4]
    bakery_coupon(plaza, title, approve=False)
    log_in(keyboard, plaza, "admin", "demo-admin-2026")
    go(keyboard, lambda e: e["tag"] == "a" and e["text"] == "Admin", limit=80)
    go(keyboard, lambda e: e["tag"] == "a" and title in e["text"], limit=120)
    go(keyboard, button("Review this"))
    go(keyboard, button("Approve"))
    main = keyboard.find_element(By.TAG_NAME, "main").text
    assert title in main and "approved" in main.lower(), main
    screenshot(keyboard, "keyboard-admin")


FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")


def choose(driver, name, label):
    """Tabs to the select `name` and picks the option starting with `label` by typing it, as on any select."""
    tab_to(driver, field(name))
    driver.switch_to.active_element.send_keys(label)
    chosen = driver.execute_script("const s = document.activeElement; return s.options[s.selectedIndex].text")
    assert chosen.startswith(label), chosen


def test_post_a_marketplace_listing_with_a_photo(plaza, keyboard):
    name = sign_up(keyboard, plaza, "m")
    title = "Keyboard lamp " + uuid.uuid4().hex[:4]
    # The home screen's marketplace card: the university address, its mailed code, the agreement.
    go(keyboard, link("Join with your university e-mail"))
    email = f"{name}@isar-uni.edu"
    type_into(keyboard, "email", email)
    go(keyboard, button("Send the code"))
    type_into(keyboard, "code", latest_code(plaza, email))
    go(keyboard, button("Verify"))
    assert "verified" in notice(keyboard)
    go(keyboard, button("I agree"))
    assert "Welcome" in notice(keyboard)
    go(keyboard, link("Sell an item"))
    # The file input sits behind its "Add photos" label: focus must show on the label. Choosing the file is the
    # system's dialog; a path typed into the focused input stands for it.
    tab_to(keyboard, lambda e: e["tag"] == "input" and e["type"] == "file")
    screenshot(keyboard, "keyboard-market-photo-focus")
    keyboard.switch_to.active_element.send_keys(os.path.join(FIXTURES, "desk-lamp.jpg"))
    wait_for(keyboard, lambda: "1 photo ready" in keyboard.find_element(By.CSS_SELECTOR, "[data-photo-status]").text,
             explain=lambda: keyboard.find_element(By.CSS_SELECTOR, "[data-photo-status]").text)
    type_into(keyboard, "title", title)
    type_into(keyboard, "description", "Warm light, bendy neck, chosen without a mouse.")
    type_into(keyboard, "price", "9.50")
    choose(keyboard, "category", "Dorm")
    go(keyboard, button("Post it"))
    assert "Posted" in notice(keyboard)
    assert "$9.50" in keyboard.find_element(By.CSS_SELECTOR, "[data-price]").text
    assert keyboard.find_elements(By.CSS_SELECTOR, "main img")
    screenshot(keyboard, "keyboard-market")


def pick_radio(driver, name, value):
    """Tabs into the radio group `name` and moves to `value` with the arrow keys (Tab stops on a group once)."""
    tab_to(driver, field(name))
    for _ in range(10):
        if driver.execute_script("return document.activeElement.value") == value:
            assert driver.execute_script("return document.activeElement.checked")
            return
        press(driver, Keys.ARROW_DOWN)
        assert focused(driver)["visible"]
    raise AssertionError(f"the arrow keys never reached {name}={value}")


def test_personalize_a_card_and_order_it(plaza, keyboard):
    sign_up(keyboard, plaza, "g")
    start(keyboard, plaza + "/cards")
    go(keyboard, link("Wedding"), limit=80)
    go(keyboard, lambda e: e["tag"] == "a" and "Olive Sprig" in (e["text"] + e["context"]), limit=80)
    go(keyboard, button("Personalize this card"), limit=80)
    # What is typed shows in the preview and is kept.
    type_into(keyboard, "text-names", "Kim & Lee")
    preview = lambda: " ".join(t.text for t in keyboard.find_elements(By.CSS_SELECTOR, "[data-preview] text"))
    wait_for(keyboard, lambda: "Kim & Lee" in preview(), explain=preview)
    wait_for(keyboard, lambda: "saved" in keyboard.find_element(By.CSS_SELECTOR, "[data-save-status]").text)
    choose(keyboard, "paperId", "Linen")
    type_into(keyboard, "quantity", "25")
    go(keyboard, button("Add to cart"))
    assert "25 cards on Linen" in notice(keyboard), notice(keyboard)
    go(keyboard, link("Check out"), limit=80)
    # The proof is approved with Space on its checkbox; the address is typed.
    tab_to(keyboard, lambda e: e["tag"] == "input" and e["type"] == "checkbox" and e["name"].startswith("approve-"), limit=80)
    press(keyboard, " ")
    assert keyboard.execute_script("return document.activeElement.checked")
    type_into(keyboard, "line1", "12 Elm Street")
    type_into(keyboard, "postalCode", "80331")
    type_into(keyboard, "city", "Munich")
    type_into(keyboard, "country", "DE")
    go(keyboard, button("Place the order"))
    assert "pay for it" in notice(keyboard), notice(keyboard)
    pick_radio(keyboard, "method", "card")
    type_into(keyboard, "number", "4242 4242 4242 4242")
    type_into(keyboard, "expiry", "12/30")
    type_into(keyboard, "cvc", "123")
    total = keyboard.find_element(By.CSS_SELECTOR, "[data-total]").text
    go(keyboard, button(f"Pay {total}"))
    status = lambda: keyboard.find_element(By.CSS_SELECTOR, "[data-order-status]")
    wait_for(keyboard, lambda: status().get_attribute("data-order-status") == "paid", seconds=20, explain=lambda: status().text)
    assert f"Paid {total} ✓" in status().text
    screenshot(keyboard, "keyboard-cards")
