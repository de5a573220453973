"""The counter as a point of sale, by clicking, at a phone's and a desktop's width: Bruno taps two pretzels and a
coffee, takes the 10 % tip Anna asks for and charges her pay code; she pays on her phone, and her receipt prints the
bakery's address, the tip and the tax line, and downloads as a PDF. Its own demo, so no other journey's money moves."""
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import free_port, new_browser, screenshot, settled, start_demo, stop
from test_accounts_flow import click, navigate, tab
from test_places_flow import log_in, wait_for
from test_wallet_flow import fill_in, follow_live, pending


@pytest.fixture(scope="module")
def till():
    port = free_port()
    server, workdir = start_demo(port)
    yield f"http://127.0.0.1:{port}"
    stop(server, workdir)


def total(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-sale-total-line]").text


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_an_item_built_charge_with_a_tip_is_paid_and_its_receipt_downloads(till, size):
    merchant = new_browser(size)
    customer = new_browser("phone")
    try:
        log_in(customer, till, "anna", "demo-anna-2026")
        tab(customer, "Wallet")
        navigate(customer, customer.find_element(By.XPATH, "//button[normalize-space()='Show a pay code']"))
        code = customer.find_element(By.CSS_SELECTOR, "[data-paycode]").text.replace("Your pay code:", "").strip()

        log_in(merchant, till, "bruno", "demo-bruno-2026")
        navigate(merchant, next(link for link in merchant.find_elements(By.LINK_TEXT, "My business") if link.is_displayed()))
        navigate(merchant, merchant.find_elements(By.LINK_TEXT, "Counter")[0])
        # Who is in the shop comes first, then what was bought.
        people = merchant.find_element(By.ID, "counter-people").location["y"]
        assert people < merchant.find_element(By.ID, "charge-form").location["y"]
        for name in ["Pretzel", "Pretzel", "Coffee"]:
            click(merchant, merchant.find_element(By.XPATH, f"//button[@data-sale-add][.//span[normalize-space()='{name}']]"))
        assert merchant.find_element(By.CSS_SELECTOR, "input[data-price='120']").get_attribute("value") == "2"
        wait_for(merchant, lambda: "$4.90" in total(merchant), explain=lambda: total(merchant))
        click(merchant, merchant.find_element(By.XPATH, "//label[contains(@class,'tip-option')][normalize-space()='10 %']"))
        wait_for(merchant, lambda: "$5.39" in total(merchant) and "tip $0.49" in total(merchant), explain=lambda: total(merchant))
        fill_in(merchant, "charge-form", {"payCode": code})
        screenshot(merchant, "counter-sale")
        click(merchant, merchant.find_element(By.XPATH, "//button[normalize-space()='Ask to pay']"))

        tab(customer, "Home")
        follow_live(customer, "Review and pay")
        wait_for(customer, lambda: len(pending(customer)) == 1, explain=lambda: customer.find_element(By.ID, "charges").text)
        shown = settled(lambda: customer.find_element(By.CSS_SELECTOR, "#charges article.charge").text)
        assert "2 × Pretzel" in shown and "Coffee" in shown and "Tip" in shown and "$0.49" in shown and "$5.39" in shown, shown
        screenshot(customer, "counter-sale-charge")
        settled(lambda: click(customer, customer.find_element(By.CSS_SELECTOR, "[data-approve]")))
        wait_for(customer, lambda: customer.find_element(By.CSS_SELECTOR, "[data-async-done]").text.startswith("Paid Bruno's Bakery $5.39"))

        # The counter's settled list says the tip, and leads to the receipt the customer has.
        wait_for(merchant, lambda: "incl. tip $0.49" in merchant.find_element(By.ID, "counter").text,
                 explain=lambda: merchant.find_element(By.ID, "counter").text)
        tab(customer, "Wallet")
        navigate(customer, customer.find_element(By.PARTIAL_LINK_TEXT, "Paid Bruno's Bakery"))
        navigate(customer, customer.find_element(By.LINK_TEXT, "Receipt"))
        receipt = customer.find_element(By.CSS_SELECTOR, ".receipt").text
        for words in ["Marienplatz, 80331 München", "2 × Pretzel", "Tip", "$0.49", "Includes 7 % tax", "$0.32",
                      "VAT DE129273398", "$5.39"]:
            assert words in receipt, (words, receipt)
        screenshot(customer, "counter-sale-receipt")
        link = customer.find_element(By.CSS_SELECTOR, "[data-receipt-pdf]").get_attribute("href")
        cookies = "; ".join(f"{c['name']}={c['value']}" for c in customer.get_cookies())
        with urllib.request.urlopen(urllib.request.Request(link, headers={"Cookie": cookies}), timeout=10) as answer:
            assert answer.headers["Content-Type"] == "application/pdf"
            assert answer.read(5) == b"%PDF-"
    finally:
        merchant.quit()
        customer.quit()


def test_the_owner_adds_an_item_and_sets_the_tips(till):
    owner = new_browser("phone")
    try:
        log_in(owner, till, "bruno", "demo-bruno-2026")
        navigate(owner, next(link for link in owner.find_elements(By.LINK_TEXT, "My business") if link.is_displayed()))
        navigate(owner, owner.find_elements(By.LINK_TEXT, "Counter")[0])
        navigate(owner, owner.find_element(By.LINK_TEXT, "Items, tips and receipts"))
        owner.find_element(By.ID, "item-name").send_keys("Rye loaf")
        owner.find_element(By.ID, "item-price").send_keys("abc")
        navigate(owner, owner.find_element(By.XPATH, "//button[normalize-space()='Add item']"))
        error = owner.find_element(By.ID, "item-price-error").text
        assert error == "Type a price such as 3.50.", error
        price = owner.find_element(By.ID, "item-price")
        price.clear()
        price.send_keys("4,20")
        navigate(owner, owner.find_element(By.XPATH, "//button[normalize-space()='Add item']"))
        assert "The item is on the counter now." in owner.find_element(By.CSS_SELECTOR, ".notice").text
        assert "Rye loaf" in owner.find_element(By.ID, "items-heading").find_element(By.XPATH, "..").text
        tips = owner.find_element(By.ID, "tipPercents")
        tips.clear()
        tips.send_keys("10, 18, 25")
        navigate(owner, owner.find_element(By.XPATH, "//button[normalize-space()='Save tips and receipts']"))
        assert "were saved" in owner.find_element(By.CSS_SELECTOR, ".notice").text
        screenshot(owner, "counter-items")
        navigate(owner, owner.find_element(By.LINK_TEXT, "← The counter"))
        options = [label.text for label in owner.find_elements(By.CSS_SELECTOR, ".tip-option")]
        assert options == ["No tip", "10 %", "18 %", "25 %", "Other"], options
        assert owner.find_elements(By.XPATH, "//button[@data-sale-add][.//span[normalize-space()='Rye loaf']]")
    finally:
        owner.quit()
