"""Issue 41: a German reader. A visitor picks Deutsch from the footer, signs up on German pages, gets the code in a
German mail, lands on a German home screen, keeps German after logging in again (the account's setting), and hears
of money a friend sends in German where she is. The words are read from the catalogue, so the test follows them."""
import json
import os
import urllib.request
import uuid

from selenium.webdriver.common.by import By

from conftest import ROOT, latest_mail, screenshot
from test_accounts_flow import PASSWORD, fill, navigate, notice, submit
from test_offer_report_flow import token
from test_places_flow import wait_for

MESSAGES = os.path.join(ROOT, "Sources", "PlazaServer", "Resources", "Messages")
DE = json.load(open(os.path.join(MESSAGES, "de.json"), encoding="utf-8"))


def words(key, **values):
    text = DE[key]
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


def test_a_german_reader_signs_up_and_hears_of_money_in_german(plaza, browser):
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
    arrivals = lambda: browser.find_element(By.CSS_SELECTOR, "[data-arrivals]").text
    # "{name} hat dir {money} geschickt.": what follows the sender's name.
    said = DE["alert.money_received.title"].split("{name}")[1].replace("{money}", "$2.50").strip()
    wait_for(browser, lambda: "$2.50" in arrivals(), seconds=20, explain=arrivals)
    assert said in arrivals(), arrivals()
    screenshot(browser, "german-arrival")

    # Logged out and in again on a browser that asks for English: the account's German wins.
    browser.delete_all_cookies()
    browser.get(plaza + "/login")
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    fill(browser, {"login": name, "password": PASSWORD})
    submit(browser, "Log in")
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
    assert words("shell.wallet") in browser.find_element(By.CSS_SELECTOR, "nav.tabs").get_attribute("textContent")
