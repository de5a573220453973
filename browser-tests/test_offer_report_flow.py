"""Issue 40: a customer reports an offer from its page, the admin opens the queue from the admin navigation and stops
the campaign with a reason, and the merchant reads the stop and its reason on the campaign's page. Every role at the
width the test runs at (360 and 1280 px)."""
import json
import urllib.request
import uuid
from datetime import datetime, timedelta, timezone

from selenium.webdriver.common.by import By

from conftest import new_browser, screenshot
from test_accounts_flow import click, fill, navigate, notice, submit
from test_offers_flow import claim_town_offer, sign_up
from test_places_flow import log_in


def api(base, method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        text = answer.read()
    return json.loads(text) if text else None


def token(base, login, password):
    return api(base, "POST", "/v1/auth/login", {"login": login, "password": password})["accessToken"]


def running_coupon(base, title):
    """A coupon of Bruno's Bakery, approved by the admin and running now (set up through the API: the editor's own
    journey is test_offers_flow's)."""
    bruno = token(base, "bruno", "demo-bruno-2026")
    bakery = next(b for b in api(base, "GET", "/v1/me/businesses", token=bruno)["items"] if b["name"] == "Bruno's Bakery")
    now = datetime.now(timezone.utc)
    stamp = lambda moment: moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    campaign = api(base, "POST", f"/v1/businesses/{bakery['id']}/campaigns", {
        "kind": "coupon", "title": title, "body": "Two loaves for the price of one, all week.",
        "startsAt": stamp(now - timedelta(minutes=1)), "endsAt": stamp(now + timedelta(days=3)),
        "delivery": ["manual"], "discount": {"percentOff": 50}, "totalRedemptions": 20,
    }, token=bruno)
    api(base, "POST", f"/v1/campaigns/{campaign['id']}/submit", token=bruno)
    admin = token(base, "admin", "demo-admin-2026")
    queue = api(base, "GET", "/v1/admin/review-queue?kind=campaign&limit=100", token=admin)["items"]
    item = next(entry for entry in queue if entry["subjectId"] == campaign["id"])
    api(base, "POST", f"/v1/admin/review-queue/{item['id']}/approve", token=admin)
    return campaign["id"].lower()


def test_a_reported_offer_is_stopped_by_the_admin_and_the_merchant_reads_why(plaza, browser):
    title = "Half-price loaves " + uuid.uuid4().hex[:4]
    campaign = running_coupon(plaza, title)
    customer = browser
    admin = new_browser(browser.size_name)
    merchant = new_browser(browser.size_name)
    try:
        # A new customer claims it among the town's offers (it is hers then), and reports it from its page.
        sign_up(customer, plaza)
        customer.get(plaza + "/offers?view=town")
        claim_town_offer(customer, title)
        assert f"/offers/{campaign}" in customer.current_url, customer.current_url
        click(customer, customer.find_element(By.XPATH, "//summary[normalize-space()='Report this offer']"))
        # "Something else" says nothing: the form comes back open, with the mistake beside the details.
        click(customer, customer.find_element(By.CSS_SELECTOR, "input[name=reason][value=other]"))
        submit(customer, "Send the report")
        error = customer.find_element(By.ID, "report-details-error")
        assert error.is_displayed() and "Say what is wrong" in error.text, error.text
        assert customer.find_element(By.CSS_SELECTOR, "input[name=reason][value=other]").is_selected()
        screenshot(customer, "offer-report-error")
        click(customer, customer.find_element(By.CSS_SELECTOR, "input[name=reason][value=misleading]"))
        fill(customer, {"details": "The shop said the half price was only for one loaf."})
        submit(customer, "Send the report")
        assert "Thanks, Plaza's team will look at it" in notice(customer)
        assert "You reported this offer on" in customer.find_element(By.CSS_SELECTOR, "[data-report-filed]").text
        screenshot(customer, "offer-report-sent")

        # The admin opens the queue from the admin navigation, reads the offer and the report, and stops it.
        log_in(admin, plaza, "admin", "demo-admin-2026")
        navigate(admin, next(link for link in admin.find_elements(By.LINK_TEXT, "Admin") if link.is_displayed()))
        item = next(row for row in admin.find_elements(By.CSS_SELECTOR, "[data-review-item]")
                    if title in row.text and "Offer report" in row.text)
        navigate(admin, item.find_element(By.TAG_NAME, "a"))
        findings = admin.find_element(By.CSS_SELECTOR, "[data-findings]").text
        assert "Two loaves for the price of one" in findings and "Bruno's Bakery" in findings, findings
        assert "misleading" in findings and "only for one loaf" in findings, findings
        submit(admin, "Review this")
        assert admin.find_element(By.CSS_SELECTOR, "input[name=action][value=stop_campaign]").is_selected()
        submit(admin, "Stop the campaign")
        assert admin.find_element(By.ID, "act-reason-error").is_displayed()
        fill(admin, {"reason": "The price it promises is not the price the shop gives."})
        screenshot(admin, "offer-report-admin")
        submit(admin, "Stop the campaign")
        assert f"You stopped “{title}” by Bruno's Bakery" in notice(admin), notice(admin)

        # The merchant finds the campaign from their business and reads the stop and its reason; nothing to do there.
        log_in(merchant, plaza, "bruno", "demo-bruno-2026")
        merchant.get(plaza + "/places/mine")
        bakery = merchant.find_element(By.XPATH, "//main//li[contains(., \"Bruno's Bakery\")]")
        navigate(merchant, bakery.find_element(By.LINK_TEXT, "Offers and coupons"))
        navigate(merchant, merchant.find_element(By.PARTIAL_LINK_TEXT, title))
        stopped = merchant.find_element(By.CSS_SELECTOR, "[data-stopped]").text
        assert stopped.startswith("Stopped by Plaza on ") and "not the price the shop gives" in stopped, stopped
        actions = merchant.find_elements(By.CSS_SELECTOR, "main .actions-card a, main .actions-card button")
        assert not actions, [action.text for action in actions]
        screenshot(merchant, "offer-report-merchant")

        # Her coupon cannot be used any more: claiming says so.
        customer.get(plaza + f"/offers/{campaign}")
        assert "Plaza's team stopped the campaign" in customer.find_element(By.CSS_SELECTOR, "[data-report-filed]").text
    finally:
        admin.quit()
        merchant.quit()
