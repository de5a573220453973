"""A sale on the campus marketplace from two phones: two new students sign up and join, the seller posts a lamp with
a photo, the buyer finds it by search, asks in the chat and offers a price, the seller counters and the buyer accepts;
the buyer adds money and pays into Plaza's hold, proposes the library lobby, the seller agrees; at the meetup the
seller shows the handshake code, the buyer types it, the money reaches the seller, and both rate each other. Then a
third student reports the seller's next listing, an admin removes it with a statement of reasons, and the seller
reads why and appeals."""
import os
import uuid

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

from conftest import latest_code, new_browser, screenshot, settled
from test_accounts_flow import click, fill, navigate, notice, submit, tab
from test_market_flow import FIXTURES, join_campus
from test_places_flow import log_in, wait_for
from test_wallet_flow import action, balance, fill_in, headline

PASSWORD = "correct horse battery staple"


def sign_up(driver, plaza, name, display):
    driver.get(plaza + "/signup")
    fill(driver, {"email": f"{name}@example.com", "username": name, "displayName": display, "password": PASSWORD})
    submit(driver, "Sign up")
    fill(driver, {"code": latest_code(plaza, f"{name}@example.com")})
    submit(driver, "Verify")


def open_conversation(driver, url, region="deal"):
    """Opens the page and waits until its live region (the deal card) has reloaded once, as it does when the page connects."""
    driver.get(url)
    wait_for(driver, lambda: driver.find_element(By.ID, region).get_attribute("data-refreshed"))


def deal(driver):
    return driver.find_element(By.ID, "deal").text


def press(driver, label):
    """Presses a button of the deal card, once the page is live (the card reloads as it connects: found afresh)."""
    wait_for(driver, lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
    for _ in range(20):
        try:
            return navigate(driver, driver.find_element(
                By.XPATH, f"//section[@id='deal']//*[self::button or self::a][normalize-space()='{label}']"))
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"the button {label} kept changing")


def in_ten_minutes(driver):
    """The meetup time field, set to ten minutes from now in the browser's own time zone (as a person would pick it)."""
    driver.execute_script("""
        const d = new Date(Date.now() + 10 * 60000), p = (n) => String(n).padStart(2, "0");
        document.getElementById("meetup-at").value =
          `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;""")


def test_two_students_agree_meet_and_close_the_sale_with_the_handshake(plaza):
    suffix = uuid.uuid4().hex[:6]
    title = "Reading lamp " + suffix
    seller = new_browser("phone")
    buyer = new_browser("phone")
    try:
        sign_up(seller, plaza, "sel" + suffix, "Sela Moss")
        join_campus(seller, plaza, "sel" + suffix)
        sign_up(buyer, plaza, "buy" + suffix, "Bao Tran")
        join_campus(buyer, plaza, "buy" + suffix)

        # The seller posts the lamp with its photo.
        seller.get(plaza + "/market/sell/new")
        seller.find_element(By.CSS_SELECTOR, "[data-photo-input]").send_keys(os.path.join(FIXTURES, "desk-lamp.jpg"))
        wait_for(seller, lambda: "1 photo ready" in seller.find_element(By.CSS_SELECTOR, "[data-photo-status]").text)
        fill_in(seller, "listing-form", {"title": title, "description": "Clamp-on reading lamp, warm bulb.", "price": "15"})
        submit(seller, "Post it")
        assert "Posted" in notice(seller)

        # The buyer finds it, opens the chat and offers $12; the offer reaches the seller's open conversation live.
        buyer.get(plaza + "/market?q=" + suffix)
        navigate(buyer, next(a for a in buyer.find_elements(By.CSS_SELECTOR, "[data-feed] li a") if title in a.text))
        navigate(buyer, buyer.find_element(By.CSS_SELECTOR, "form[action$='/interested'] button"))
        conversation = buyer.current_url
        fill_in(buyer, "offer-form", {"amount": "abc"})
        submit(buyer, "Make an offer")
        assert "price such as" in buyer.find_element(By.ID, "offer-amount-error").text
        fill_in(buyer, "offer-form", {"amount": "12"})
        submit(buyer, "Make an offer")
        assert "Offer sent" in notice(buyer)
        assert "You offered $12.00" in deal(buyer)
        screenshot(buyer, "market-deal-offered")

        seller.get(conversation)
        wait_for(seller, lambda: seller.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
        assert "Bao T. offers $12.00" in deal(seller)
        screenshot(seller, "market-deal-answer")
        counter = seller.find_element(By.CSS_SELECTOR, "#deal form[action$='/counter'] [name=amount]")
        counter.clear()
        counter.send_keys("14")
        press(seller, "Counter")
        assert "Your price is sent" in notice(seller)
        # The buyer's page follows live: the counter is there to accept.
        wait_for(buyer, lambda: "Sela M. asks $14.00" in deal(buyer), explain=lambda: deal(buyer))
        buyer.get(conversation)
        press(buyer, "Accept")
        assert "reserved" in notice(buyer)
        assert "Deal: $14.00" in deal(buyer)
        screenshot(buyer, "market-deal-accepted")

        # Paying through Plaza needs money: the buyer adds $20, then pays; Plaza holds it.
        tab(buyer, "Wallet")
        action(buyer, "add-money")
        fill_in(buyer, "topup-form", {"amount": "20", "number": "4242 4242 4242 4242", "expiry": "1234", "cvc": "123"})
        submit(buyer, "Add money")
        wait_for(buyer, lambda: "Added $20.00" in headline(buyer), explain=lambda: headline(buyer))
        buyer.get(conversation)
        press(buyer, "Pay $14.00 through Plaza")
        # Like every payment, it asks first: who, what for, how much, and what the hold does (issue 39).
        assert "Pay $14.00 into Plaza's hold" in buyer.find_element(By.CSS_SELECTOR, "[data-pay-hold]").text
        assert "For “" in buyer.find_element(By.CSS_SELECTOR, "[data-item]").text
        screenshot(buyer, "market-pay-confirm")
        navigate(buyer, buyer.find_element(By.CSS_SELECTOR, "[data-pay-hold]"))
        assert "Plaza holds the money" in notice(buyer)
        assert "You paid $14.00" in deal(buyer)
        tab(buyer, "Wallet")
        assert balance(buyer) == "$6.00"

        # The buyer proposes the library lobby in ten minutes; the seller accepts.
        buyer.get(conversation)
        meet = buyer.find_element(By.ID, "meet")
        assert meet.get_attribute("open") is not None, "an agreed price with nowhere to meet opens the meetup form"
        wait_for(buyer, lambda: buyer.find_element(By.CSS_SELECTOR, "#meet .plaza-map").get_attribute("data-ready") == "1")
        # A tap on the library's pin on the map picks it.
        click(buyer, buyer.find_element(By.CSS_SELECTOR, "#meet .leaflet-marker-icon[title='Main library lobby']"))
        spot = buyer.find_element(By.ID, "meetup-spot")
        assert "Main library lobby" in spot.find_element(By.CSS_SELECTOR, f"option[value='{spot.get_attribute('value')}']").text
        in_ten_minutes(buyer)
        screenshot(buyer, "market-deal-meetup")
        submit(buyer, "Propose this meetup")
        assert "Meetup proposed" in notice(buyer)
        seller.get(conversation)
        assert "Main library lobby" in deal(seller)
        press(seller, "Accept the meetup")
        assert "Meetup agreed" in notice(seller)
        # The seller shows the buyer where she is, for this meetup only.
        press(seller, "Show them where I am")
        assert "sees where you are" in notice(seller)
        open_conversation(buyer, conversation)
        assert "Sela M. shares where they are" in deal(buyer)
        # The deal card draws the meeting point on its own map (and the seller's dot once her phone reports where she is).
        wait_for(buyer, lambda: buyer.find_element(By.CSS_SELECTOR, "[data-meetup-map]").get_attribute("data-ready") == "1")
        assert buyer.find_element(By.CSS_SELECTOR, "[data-meetup-map] .leaflet-marker-icon[title='Main library lobby']")
        buyer.execute_script("document.querySelector('[data-meetup-map]').scrollIntoView({block: 'center'})")
        screenshot(buyer, "market-deal-meetup-map")

        # At the meetup: the seller shows the code, the buyer types it; the seller's screen says it is done.
        press(seller, "Show the handshake code")
        code = seller.find_element(By.CSS_SELECTOR, "[data-handshake-code]").text.replace(" ", "")
        assert len(code) == 6 and seller.find_element(By.CSS_SELECTOR, "[data-handshake-qr] svg")
        screenshot(seller, "market-handshake")
        wait_for(seller, lambda: seller.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
        buyer.get(conversation)
        wait_for(buyer, lambda: buyer.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
        fill_in(buyer, "handshake-form", {"code": "000000" if code != "000000" else "111111"})
        submit(buyer, "Confirm the handshake")
        assert "Not the code" in buyer.find_element(By.ID, "handshake-code-error").text
        wait_for(buyer, lambda: buyer.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
        fill_in(buyer, "handshake-form", {"code": code})
        submit(buyer, "Confirm the handshake")
        assert "the item is yours, and Sela M. has the money" in notice(buyer)
        assert "You bought it for $14.00" in deal(buyer)
        screenshot(buyer, "market-deal-done")
        wait_for(seller, lambda: "confirmed the handshake" in seller.find_element(By.CSS_SELECTOR, "[data-handshake-status]").text,
                 explain=lambda: seller.find_element(By.CSS_SELECTOR, "[data-handshake-status]").text)
        tab(seller, "Wallet")
        assert balance(seller) == "$14.00"

        # Both rate each other; neither reads the other's rating until both have rated.
        open_conversation(buyer, conversation)
        click(buyer, buyer.find_element(By.CSS_SELECTOR, "#rating-form input[name=stars][value='5']"))
        fill_in(buyer, "rating-form", {"comment": "Lamp as described, friendly handover."})
        submit(buyer, "Send the rating")
        assert "once they rate you too" in notice(buyer)
        open_conversation(seller, conversation)
        assert "Bao T. rated you: rate them to read it." in deal(seller)
        submit(seller, "Send the rating")
        assert "Give 1 to 5 stars" in seller.find_element(By.ID, "rating-stars-error").text
        wait_for(seller, lambda: seller.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
        click(seller, seller.find_element(By.CSS_SELECTOR, "#rating-form input[name=stars][value='4']"))
        submit(seller, "Send the rating")
        assert "both rated" in notice(seller)
        assert "Bao T. gave you ★★★★★: “Lamp as described, friendly handover.”" in deal(seller)
        screenshot(seller, "market-deal-rated")
        seller.get(plaza + "/market/users/sel" + suffix)
        assert "★ 5.0 · 1 rating" in seller.find_element(By.CSS_SELECTOR, "[data-profile-rating]").text
        assert "friendly handover" in seller.find_element(By.CSS_SELECTOR, "[data-profile-ratings]").text

        # The seller lists something that breaks the rules; a third student reports it from the listing.
        seller.get(plaza + "/market/sell/new")
        seller.find_element(By.CSS_SELECTOR, "[data-photo-input]").send_keys(os.path.join(FIXTURES, "desk-lamp.jpg"))
        wait_for(seller, lambda: "1 photo ready" in seller.find_element(By.CSS_SELECTOR, "[data-photo-status]").text)
        banned = "Exam answers " + suffix
        fill_in(seller, "listing-form", {"title": banned, "description": "All answers for the finals.", "price": "30"})
        submit(seller, "Post it")
        listing = seller.current_url.split("?")[0]
        third = new_browser("phone")
        try:
            sign_up(third, plaza, "thi" + suffix, "Tim Hale")
            join_campus(third, plaza, "thi" + suffix)
            third.get(listing)
            navigate(third, third.find_element(By.CSS_SELECTOR, "[data-report]"))
            submit(third, "Send the report")
            assert "Pick what is wrong" in third.find_element(By.ID, "report-reason-error").text
            click(third, third.find_element(By.CSS_SELECTOR, "#report-form input[name=reason][value=prohibited_item]"))
            fill_in(third, "report-form", {"details": "Selling exam answers."})
            screenshot(third, "market-report")
            submit(third, "Send the report")
            assert "Thanks for reporting it" in notice(third)
        finally:
            third.quit()

        # An admin upholds it: the listing goes, with a statement of reasons the seller reads; she appeals once.
        admin = new_browser("desktop")
        try:
            log_in(admin, plaza, "admin", "demo-admin-2026")
            admin.get(plaza + "/admin")
            item = next(row for row in admin.find_elements(By.CSS_SELECTOR, "[data-review-item]") if banned in row.text)
            navigate(admin, item.find_element(By.TAG_NAME, "a"))
            assert "Selling exam answers." in admin.find_element(By.CSS_SELECTOR, "[data-findings]").text
            submit(admin, "Review this")
            click(admin, admin.find_element(By.CSS_SELECTOR, "#act-form input[name=action][value=remove_listing]"))
            fill_in(admin, "act-form", {"reason": "Exam answers break the academic integrity rules."})
            screenshot(admin, "market-admin-report")
            submit(admin, "Uphold the report")
            assert "You acted on the report" in notice(admin)
            assert "remove the listing" in admin.find_element(By.CSS_SELECTOR, "[data-decision]").text
        finally:
            admin.quit()
        seller.get(listing)
        assert "removed" in seller.find_element(By.TAG_NAME, "main").text.lower()
        seller.get(plaza + "/market/decisions")
        decisions = seller.find_element(By.CSS_SELECTOR, "[data-decisions]").text
        assert banned in decisions and "academic integrity" in decisions
        fill(seller, {"text": "These are my own practice questions, not the exam."})
        submit(seller, "Send the appeal")
        assert "Appeal sent" in notice(seller)
        assert "You appealed" in seller.find_element(By.CSS_SELECTOR, "[data-decisions]").text
        screenshot(seller, "market-decisions")
    finally:
        seller.quit()
        buyer.quit()


def test_students_bid_and_plaza_bids_for_them_up_to_their_maximum(plaza):
    suffix = uuid.uuid4().hex[:6]
    title = "Concert poster " + suffix
    seller, first, second = new_browser("phone"), new_browser("phone"), new_browser("desktop")
    try:
        for driver, name, display in [(seller, "sel", "Sela Moss"), (first, "bid", "Bea Dunn"), (second, "ivo", "Ivo Lang")]:
            sign_up(driver, plaza, name + suffix, display)
            join_campus(driver, plaza, name + suffix)

        # The seller lists the poster for bidding from $10, with a $25 reserve.
        seller.get(plaza + "/market/sell/new")
        seller.find_element(By.CSS_SELECTOR, "[data-photo-input]").send_keys(os.path.join(FIXTURES, "desk-lamp.jpg"))
        wait_for(seller, lambda: "1 photo ready" in seller.find_element(By.CSS_SELECTOR, "[data-photo-status]").text)
        fill_in(seller, "listing-form", {"title": title, "description": "Signed by the band.", "price": "10"})
        click(seller, seller.find_element(By.CSS_SELECTOR, "[data-bidding-options] summary"))
        click(seller, seller.find_element(By.CSS_SELECTOR, "input[name=bidding]"))
        fill_in(seller, "listing-form", {"reserve": "25"})
        submit(seller, "Post it")
        assert "Posted" in notice(seller)
        listing = seller.current_url.split("?")[0]
        assert "No bids yet" in seller.find_element(By.CSS_SELECTOR, "[data-bidding]").text
        assert not seller.find_elements(By.ID, "bid-form"), "no bidding on her own listing"

        # Bea bids up to $20: she leads at the start price. Ivo's $15 is answered by her proxy at $16.
        open_conversation(first, listing, "bidding")
        fill_in(first, "bid-form", {"maxAmount": "20"})
        submit(first, "Place bid")
        assert "Bid placed" in notice(first)
        # The bidding box is drawn again when the bid's own event arrives: read it as it settles.
        assert "You lead" in settled(lambda: first.find_element(By.CSS_SELECTOR, "[data-bidding]").text)
        assert "$10.00" in settled(lambda: first.find_element(By.CSS_SELECTOR, "[data-bid-current]").text)
        open_conversation(second, listing, "bidding")
        fill_in(second, "bid-form", {"maxAmount": "5"})
        submit(second, "Place bid")
        assert "at least" in second.find_element(By.ID, "bid-max-error").text.lower() or "Bid at least" in second.page_source
        wait_for(second, lambda: second.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
        fill_in(second, "bid-form", {"maxAmount": "15"})
        submit(second, "Place bid")
        wait_for(second, lambda: second.find_element(By.ID, "bidding").get_attribute("data-refreshed"))
        assert "$16.00" in settled(lambda: second.find_element(By.CSS_SELECTOR, "[data-bid-current]").text)
        assert "You lead" not in settled(lambda: second.find_element(By.CSS_SELECTOR, "[data-bidding]").text)
        # Ivo goes to $40: he leads, and as his maximum meets the $25 reserve the price goes to it.
        fill_in(second, "bid-form", {"maxAmount": "40"})
        submit(second, "Place bid")
        wait_for(second, lambda: second.find_element(By.ID, "bidding").get_attribute("data-refreshed"))
        box = settled(lambda: second.find_element(By.CSS_SELECTOR, "[data-bidding]").text)
        assert "You lead" in box and "$25.00" in box and "Reserve met" in box
        screenshot(second, "market-bidding")
        screenshot(first, "market-bidding")
    finally:
        seller.quit()
        first.quit()
        second.quit()
