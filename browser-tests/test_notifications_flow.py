"""Push notifications as a customer turns them on: the permission is asked only after her tap, her browser's
subscription goes to Plaza, and when a merchant charges her the local push service receives a message that it
decrypts (with the subscription's private key) to that charge, signed with Plaza's VAPID key."""
import json
import urllib.request

from selenium.webdriver.common.by import By

from conftest import new_browser, screenshot
from test_accounts_flow import click, navigate, notice, tab
from test_places_flow import log_in, wait_for
from test_wallet_flow import fill_in, follow_live, pending


def fetch_json(url):
    with urllib.request.urlopen(url, timeout=5) as answer:
        return json.loads(answer.read())


def stand_in_push_service(driver, subscription):
    """Chromium's PushManager subscribes at Google's push service, which a loopback test cannot reach: the page gets
    a subscription at the local receiver instead (everything after, the page's code, Plaza and the encryption, is
    real). The subscription is handed out only after `subscribe` was called with an applicationServerKey."""
    script = """
      (() => {
        if (!self.PushManager) return;
        const subscription = %s;
        let current = null;
        PushManager.prototype.subscribe = async function (options) {
          if (!options || !options.applicationServerKey || options.userVisibleOnly !== true) throw new Error("bad options");
          current = { endpoint: subscription.endpoint, toJSON: () => subscription, unsubscribe: async () => true };
          return current;
        };
        PushManager.prototype.getSubscription = async function () { return current; };
      })();
    """ % json.dumps(subscription)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})


def test_a_customer_turns_on_notifications_and_a_charge_reaches_her_device(plaza, push_receiver):
    customer = new_browser("phone")
    merchant = new_browser("desktop")
    try:
        subscription = fetch_json(push_receiver + "/control/subscribe")
        stand_in_push_service(customer, subscription)
        log_in(customer, plaza, "anna", "demo-anna-2026")
        tab(customer, "Account")
        navigate(customer, customer.find_element(By.LINK_TEXT, "Choose notifications and devices"))
        assert customer.find_element(By.TAG_NAME, "h1").text == "Notifications"
        # Nothing was asked on page load: the browser still waits for a decision.
        assert customer.execute_script("return Notification.permission") == "default"
        customer.execute_cdp_cmd("Browser.grantPermissions", {"origin": plaza, "permissions": ["notifications"]})
        click(customer, customer.find_element(By.CSS_SELECTOR, "[data-push-enable]"))
        wait_for(customer, lambda: "Notifications are on for this device" in notice(customer),
                 explain=lambda: customer.find_element(By.CSS_SELECTOR, "[data-push-status]").text)
        assert len(customer.find_elements(By.CSS_SELECTOR, "[data-device]")) == 1
        screenshot(customer, "notifications-settings")

        # Her pay code, read out at the counter.
        tab(customer, "Wallet")
        navigate(customer, customer.find_element(By.XPATH, "//button[normalize-space()='Show a pay code']"))
        code = customer.find_element(By.CSS_SELECTOR, "[data-paycode]").text.replace("Your pay code:", "").strip()
        customer.get(plaza + "/")  # she puts the phone away: the page that showed the code is gone

        log_in(merchant, plaza, "bruno", "demo-bruno-2026")
        navigate(merchant, merchant.find_element(By.LINK_TEXT, "My business"))
        navigate(merchant, merchant.find_elements(By.LINK_TEXT, "Counter")[0])
        fill_in(merchant, "charge-form", {"payCode": code, "amount": "2.40", "description": "Espresso"})
        click(merchant, merchant.find_element(By.XPATH, "//button[normalize-space()='Ask to pay']"))

        def arrived():
            return fetch_json(push_receiver + "/control/messages")["messages"]
        wait_for(merchant, lambda: len(arrived()) == 1, explain=lambda: json.dumps(fetch_json(push_receiver + "/control/messages")))
        message = arrived()[0]
        assert message["payload"]["title"] == "Bruno's Bakery asks you to pay $2.40."
        assert message["payload"]["link"] == "/wallet/charges" and message["urgency"] == "high"
        assert fetch_json(push_receiver + "/control/messages")["failures"] == []

        # She answers it on her phone, and takes this device off (the demo is shared by the tests that follow).
        tab(customer, "Home")
        follow_live(customer, "Review and pay")
        wait_for(customer, lambda: len(pending(customer)) == 1)
        click(customer, customer.find_element(By.CSS_SELECTOR, "[data-decline]"))
        wait_for(customer, lambda: pending(customer) == [])
        tab(customer, "Account")
        navigate(customer, customer.find_element(By.LINK_TEXT, "Choose notifications and devices"))
        click(customer, customer.find_element(By.XPATH, "//li[@data-device]//button[normalize-space()='Remove']"))
        wait_for(customer, lambda: "gets no more notifications" in notice(customer))
        assert customer.find_elements(By.CSS_SELECTOR, "[data-device]") == []

        # Settings at desktop width too.
        tab(merchant, "Account")
        navigate(merchant, merchant.find_element(By.LINK_TEXT, "Choose notifications and devices"))
        screenshot(merchant, "notifications-settings")
    finally:
        customer.quit()
        merchant.quit()


def test_a_charge_arrives_as_a_banner_on_whatever_page_is_open(plaza, browser):
    """Anna reads her pay code out at the counter and goes on browsing Places: the bakery's charge arrives there as a
    banner (not only as a badge), and its link takes her to answer it."""
    merchant = new_browser("desktop")
    try:
        log_in(browser, plaza, "anna", "demo-anna-2026")
        tab(browser, "Wallet")
        navigate(browser, browser.find_element(By.XPATH, "//button[normalize-space()='Show a pay code']"))
        code = browser.find_element(By.CSS_SELECTOR, "[data-paycode]").text.replace("Your pay code:", "").strip()
        tab(browser, "Places")
        wait_for(browser, lambda: browser.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")

        log_in(merchant, plaza, "bruno", "demo-bruno-2026")
        navigate(merchant, next(link for link in merchant.find_elements(By.LINK_TEXT, "My business") if link.is_displayed()))
        navigate(merchant, merchant.find_elements(By.LINK_TEXT, "Counter")[0])
        fill_in(merchant, "charge-form", {"payCode": code, "amount": "3.10", "description": "Rye loaf"})
        click(merchant, merchant.find_element(By.XPATH, "//button[normalize-space()='Ask to pay']"))

        banner = lambda: " ".join(item.text for item in browser.find_elements(By.CSS_SELECTOR, "[data-arrival]"))
        wait_for(browser, lambda: "Bruno's Bakery asks you to pay $3.10" in banner(), explain=banner)
        assert browser.current_url.endswith("/places"), "she stayed where she was"
        screenshot(browser, "arrival-banner")
        navigate(browser, browser.find_element(By.CSS_SELECTOR, "[data-arrival] a"))
        wait_for(browser, lambda: len(pending(browser)) >= 1)
        assert "Rye loaf" in browser.find_element(By.ID, "charges").text
        # Leave the demo as it was: she declines.
        card = next(item for item in browser.find_elements(By.CSS_SELECTOR, "#charges article.charge") if "Rye loaf" in item.text)
        click(browser, card.find_element(By.CSS_SELECTOR, "[data-decline]"))
        wait_for(browser, lambda: not any("Rye loaf" in item.text for item in browser.find_elements(By.CSS_SELECTOR, "#charges article.charge")))
    finally:
        merchant.quit()
