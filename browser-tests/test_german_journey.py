"""Issue 41: a German reader. A visitor picks Deutsch from the footer, signs up on German pages, gets the code in a
German mail, lands on a German home screen, hears of money a friend sends in German where she is, lets paying take a
card, is asked to pay by the bakery (a German alert), pays it (a punch), claims a coupon, and keeps German after
logging in again (the account's setting). The words are read from the catalogue, so the test follows them."""
import json
import os
import re
import urllib.request
import uuid

from selenium.webdriver.common.by import By

from conftest import ROOT, latest_mail, screenshot
from test_accounts_flow import PASSWORD, fill, navigate, notice, submit
from test_offer_report_flow import api, running_coupon, token
from test_offers_flow import claim_town_offer
from test_places_flow import wait_for

MESSAGES = os.path.join(ROOT, "Sources", "PlazaServer", "Resources", "Messages")
DE = json.load(open(os.path.join(MESSAGES, "de.json"), encoding="utf-8"))
# $2.50 as a German reads it in an alert.
GERMAN_MONEY = "2,50 $"


def words(key, **values):
    text = DE[key]
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


def test_a_german_reader_signs_up_pays_gets_a_punch_and_claims_a_coupon_in_german(plaza, browser):
    name = "g" + uuid.uuid4().hex[:10]
    email = f"{name}@example.com"
    browser.get(plaza + "/")
    navigate(browser, browser.find_element(By.CSS_SELECTOR, "footer a[href='/language']"))
    browser.find_element(By.CSS_SELECTOR, "input[name=language][value=de]").click()
    navigate(browser, browser.find_element(By.CSS_SELECTOR, "form[action='/language'] button[type=submit]"))
    assert notice(browser) == words("accounts.notice.language")
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"

    # Signing up, in German; the mail with the code is German too.
    navigate(browser, browser.find_element(By.LINK_TEXT, words("shell.sign_up")))
    assert browser.find_element(By.TAG_NAME, "h1").text == words("signup.heading")
    fill(browser, {"email": email, "username": name, "displayName": "Greta Gruber", "password": PASSWORD})
    screenshot(browser, "german-signup")
    submit(browser, words("shell.sign_up"))
    mail = latest_mail(plaza, email)
    assert mail.startswith("Willkommen bei Plaza."), mail
    code = next(word for word in mail.replace(".", " ").split() if len(word) == 6 and word.isdigit())
    assert browser.find_element(By.TAG_NAME, "h1").text == words("verify.title")
    fill(browser, {"code": code})
    submit(browser, words("verify.submit"))
    assert words("home.balance", name="Greta Gruber") in browser.find_element(By.ID, "balance-heading").text
    screenshot(browser, "german-home")

    # Anna (English) sends her money: the arrival on Greta's page is German.
    anna = token(plaza, "anna", "demo-anna-2026")
    wait_for(browser, lambda: browser.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
    body = json.dumps({"to": name, "amount": 250, "currency": "USD", "note": "Danke!"}).encode()
    sent = urllib.request.Request(plaza + "/v1/transfers", data=body, method="POST", headers={
        "Content-Type": "application/json", "Authorization": "Bearer " + anna, "Idempotency-Key": str(uuid.uuid4())})
    with urllib.request.urlopen(sent, timeout=10) as answer:
        assert answer.status == 201
    # Alerts write money the German way ("2,50 $", a no-break space the browser's text may keep).
    arrivals = lambda: re.sub("[\u00a0\u202f]", " ", browser.find_element(By.CSS_SELECTOR, "[data-arrivals]").text)
    # "{name} hat dir {money} geschickt.": what follows the sender's name.
    said = DE["alert.money_received.title"].split("{name}")[1].replace("{money}", GERMAN_MONEY).strip()
    wait_for(browser, lambda: GERMAN_MONEY in arrivals(), seconds=20, explain=arrivals)
    assert said in arrivals(), arrivals()
    screenshot(browser, "german-arrival")

    # She lets paying take a first card, from the German loyalty page.
    browser.get(plaza + "/loyalty")
    assert browser.find_element(By.TAG_NAME, "h1").text == words("home.loyalty_cards")
    browser.find_element(By.CSS_SELECTOR, "input[name=cardOnPayment]").click()
    submit(browser, words("loyalty.cards.save"))

    # She shows the bakery a pay code, and it asks her to pay: the arrival is German where she is, and so is paying.
    browser.get(plaza + "/wallet")
    navigate(browser, browser.find_element(By.CSS_SELECTOR, "form[action='/wallet/pay-code'] button[type=submit]"))
    code = re.sub(r"\D", "", browser.find_element(By.CSS_SELECTOR, "[data-paycode]").text)[-8:]
    assert len(code) == 8, browser.find_element(By.TAG_NAME, "main").text
    bruno = token(plaza, "bruno", "demo-bruno-2026")
    bakery = next(b for b in api(plaza, "GET", "/v1/me/businesses", token=bruno)["items"] if b["name"] == "Bruno's Bakery")
    browser.get(plaza + "/")
    wait_for(browser, lambda: browser.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
    charge = json.dumps({"businessId": bakery["id"], "payCode": code, "amount": 250, "currency": "USD"}).encode()
    asked = urllib.request.Request(plaza + "/v1/charges", data=charge, method="POST", headers={
        "Content-Type": "application/json", "Authorization": "Bearer " + bruno, "Idempotency-Key": str(uuid.uuid4())})
    with urllib.request.urlopen(asked, timeout=10) as answer:
        assert answer.status == 201
    asking = words("alert.charge.asked.title", business="Bruno's Bakery", money=GERMAN_MONEY)
    wait_for(browser, lambda: asking in arrivals(), seconds=20, explain=arrivals)
    screenshot(browser, "german-asked")
    browser.get(plaza + "/wallet/charges")
    pay = lambda: browser.find_element(By.CSS_SELECTOR, "#charges article.charge button[data-approve]")
    wait_for(browser, lambda: pay().is_displayed(), explain=lambda: browser.find_element(By.ID, "charges").text)
    pay().click()
    done = lambda: browser.find_element(By.CSS_SELECTOR, "[data-async-done]").text
    paid = DE["=Paid {business} {amount} ✓"]  # "{amount} an {business} bezahlt ✓"
    wait_for(browser, lambda: "Bruno's Bakery" in done() and paid.split("{business}")[1].strip() in done(),
             seconds=20, explain=done)
    screenshot(browser, "german-paid")

    # Paying punched the bakery's card she now holds.
    browser.get(plaza + "/loyalty")
    card = browser.find_element(By.CSS_SELECTOR, "[data-loyalty-cards] li").text
    assert "Bruno's Bakery" in card and "Coffee card" in card, card

    # A coupon of the bakery, claimed among the town's offers in German.
    title = "Brezel-Gutschein " + uuid.uuid4().hex[:4]
    campaign = running_coupon(plaza, title)
    browser.get(plaza + "/offers?view=town")
    claim_town_offer(browser, title, words("offers.claim"))
    assert f"/offers/{campaign}" in browser.current_url, browser.current_url
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
    screenshot(browser, "german-coupon")

    # Logged out and in again on a browser that asks for English: the account's German wins.
    browser.delete_all_cookies()
    browser.get(plaza + "/login")
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    fill(browser, {"login": name, "password": PASSWORD})
    submit(browser, "Log in")
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
    assert words("shell.wallet") in browser.find_element(By.CSS_SELECTOR, "nav.tabs").get_attribute("textContent")

    # Her account page says which language Plaza speaks to her in, and leads to where she changes it.
    navigate(browser, browser.find_element(By.CSS_SELECTOR, "nav.tabs a[href='/account']"))
    assert "Deutsch" in browser.find_element(By.ID, "language").text
    navigate(browser, browser.find_element(By.CSS_SELECTOR, "#language a[href='/language']"))
    assert browser.find_element(By.TAG_NAME, "h1").text == words("language.title")
