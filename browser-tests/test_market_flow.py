"""The campus marketplace: from the home screen a student proves their university address with the mailed code, reads
and signs the agreement, and lands on their campus; a student sells a lamp with a photo that another finds by search."""
import os
import uuid

from selenium.webdriver.common.by import By

from conftest import latest_code, new_browser, screenshot
from test_accounts_flow import click, fill, navigate, notice, submit
from test_places_flow import log_in, wait_for
from test_wallet_flow import fill_in

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")

# One demo account per width: joining happens once per account.
STUDENTS = {"phone": ("carla", "demo-carla-2026"), "desktop": ("dora", "demo-dora-2026")}


def test_a_student_joins_the_campus_marketplace(plaza, browser):
    username, password = STUDENTS[browser.size_name]
    log_in(browser, plaza, username, password)
    card = browser.find_element(By.CSS_SELECTOR, "[data-home-market]")
    assert "Join with your university e-mail" in card.text
    navigate(browser, card.find_element(By.LINK_TEXT, "Join with your university e-mail"))
    assert "Isar University" in browser.find_element(By.CSS_SELECTOR, "[data-campuses]").text

    # A personal address is refused beside the field; the university one gets a code.
    fill(browser, {"email": f"{username}@example.com"})
    submit(browser, "Send the code")
    assert "university address" in browser.find_element(By.ID, "campus-email-error").text
    email = f"{username}@isar-uni.edu"
    fill(browser, {"email": email})
    screenshot(browser, "market-join")
    submit(browser, "Send the code")
    assert email in browser.find_element(By.TAG_NAME, "main").text
    fill(browser, {"code": "000000" if latest_code(plaza, email) != "000000" else "111111"})
    submit(browser, "Verify")
    assert "wrong" in browser.find_element(By.ID, "campus-code-error").text
    fill(browser, {"code": latest_code(plaza, email)})
    submit(browser, "Verify")

    # The agreement, then the campus.
    assert "verified" in notice(browser)
    assert "safe spot" in browser.find_element(By.CSS_SELECTOR, "section.agreement").text
    screenshot(browser, "market-agreement")
    submit(browser, "I agree")
    assert "Welcome" in notice(browser)
    assert "Isar University" in browser.find_element(By.TAG_NAME, "h1").text
    assert "Main library lobby" in browser.find_element(By.CSS_SELECTOR, "[data-safe-spots]").text
    screenshot(browser, "market-home")
    browser.get(plaza + "/")
    assert "Join" not in browser.find_element(By.CSS_SELECTOR, "[data-home-market]").text


def join(driver, plaza, username, password):
    """Logs in and joins the campus marketplace unless already in (the other journey may have done it)."""
    log_in(driver, plaza, username, password)
    join_campus(driver, plaza, username)


def join_campus(driver, plaza, username):
    """Joins the campus marketplace, signed in, with `username`'s university address, unless already in."""
    driver.get(plaza + "/market")
    if driver.find_elements(By.ID, "campus-email"):
        email = f"{username}@isar-uni.edu"
        fill(driver, {"email": email})
        submit(driver, "Send the code")
        fill(driver, {"code": latest_code(plaza, email)})
        submit(driver, "Verify")
    if driver.find_elements(By.XPATH, "//button[normalize-space()='I agree']"):
        submit(driver, "I agree")
    elif not driver.find_elements(By.CSS_SELECTOR, "[data-feed]"):
        driver.get(plaza + "/market/agreement")
        submit(driver, "I agree")


def test_a_student_sells_a_lamp_with_a_photo_that_another_finds(plaza):
    title = "Desk lamp " + uuid.uuid4().hex[:4]
    seller = new_browser("phone")
    buyer = new_browser("desktop")
    try:
        join(seller, plaza, "carla", "demo-carla-2026")
        seller.get(plaza + "/market")
        navigate(seller, seller.find_element(By.LINK_TEXT, "Sell an item"))
        # The photo uploads as soon as it is chosen; the form says so and shows it.
        seller.find_element(By.CSS_SELECTOR, "[data-photo-input]").send_keys(os.path.join(FIXTURES, "desk-lamp.jpg"))
        wait_for(seller, lambda: "1 photo ready" in seller.find_element(By.CSS_SELECTOR, "[data-photo-status]").text,
                 explain=lambda: seller.find_element(By.CSS_SELECTOR, "[data-photo-status]").text)
        # Forgetting the price is caught beside the field, and the photo stays.
        fill_in(seller, "listing-form", {"title": title, "description": "Warm light, bendy neck. Pick up at the library."})
        seller.find_element(By.CSS_SELECTOR, "select[name=category] option[value=dorm_supplies]").click()
        submit(seller, "Post it")
        assert "Give a price" in seller.find_element(By.ID, "listing-price-error").text
        assert seller.find_elements(By.CSS_SELECTOR, "[data-photo-previews] img")
        fill_in(seller, "listing-form", {"price": "12.50"})
        screenshot(seller, "market-new-listing")
        submit(seller, "Post it")
        assert "Posted" in notice(seller)
        assert "$12.50" in seller.find_element(By.CSS_SELECTOR, "[data-price]").text
        screenshot(seller, "market-listing")

        # Another student finds it by a word of its description, with its photo, and opens it.
        join(buyer, plaza, "dora", "demo-dora-2026")
        buyer.get(plaza + "/market")
        fill(buyer, {"q": "bendy"})
        submit(buyer, "Search")
        card = next(item for item in buyer.find_elements(By.CSS_SELECTOR, "[data-feed] li") if title in item.text)
        assert "$12.50" in card.text and card.find_element(By.TAG_NAME, "img").get_property("naturalWidth") > 0
        screenshot(buyer, "market-feed")
        # She keeps the search, to hear of new lamps.
        buyer.find_element(By.CSS_SELECTOR, "[data-save-search] option[value=daily]").click()
        submit(buyer, "Save this search")
        assert "Search saved" in notice(buyer)
        assert "“bendy” · a daily digest" in buyer.find_element(By.CSS_SELECTOR, "[data-saved-searches]").text
        buyer.get(plaza + "/market?q=bendy")
        card = next(item for item in buyer.find_elements(By.CSS_SELECTOR, "[data-feed] li") if title in item.text)
        navigate(buyer, card.find_element(By.TAG_NAME, "a"))
        assert "Carla" in buyer.find_element(By.CSS_SELECTOR, "[data-listing]").text
        # She saves it to her wish list.
        navigate(buyer, buyer.find_element(By.CSS_SELECTOR, "[data-save]"))
        assert "Saved to your wish list" in notice(buyer)
        assert "Saved ✓" in buyer.find_element(By.CSS_SELECTOR, "[data-save]").text
        assert not buyer.find_elements(By.XPATH, "//button[normalize-space()='Mark as sold']")
        # The seller's name leads to her profile and what else she sells.
        navigate(buyer, buyer.find_element(By.CSS_SELECTOR, "[data-listing] a[href^='/market/users/']"))
        assert "Carla" in buyer.find_element(By.CSS_SELECTOR, "[data-profile]").text
        assert title in buyer.find_element(By.CSS_SELECTOR, "[data-profile-listings]").text
        # She follows Carla; her You tab gathers the wish list, the follow and the saved search.
        navigate(buyer, buyer.find_element(By.CSS_SELECTOR, "[data-follow]"))
        assert "Following" in notice(buyer)
        navigate(buyer, buyer.find_element(By.LINK_TEXT, "← Campus marketplace"))
        navigate(buyer, buyer.find_element(By.LINK_TEXT, "You"))
        assert title in buyer.find_element(By.CSS_SELECTOR, "[data-wish-list]").text
        assert "Carla" in buyer.find_element(By.CSS_SELECTOR, "[data-follows]").text
        # She gives her profile a photo and a line about herself.
        buyer.find_element(By.CSS_SELECTOR, "#profile-form [data-photo-input]").send_keys(os.path.join(FIXTURES, "desk-lamp.jpg"))
        wait_for(buyer, lambda: "1 photo ready" in buyer.find_element(By.CSS_SELECTOR, "#profile-form [data-photo-status]").text)
        fill_in(buyer, "profile-form", {"bio": "Architecture, second year."})
        submit(buyer, "Save your profile")
        assert "Profile saved" in notice(buyer)
        screenshot(buyer, "market-you")
        buyer.get(plaza + "/market/users/dora")
        assert "Architecture, second year." in buyer.find_element(By.CSS_SELECTOR, "[data-profile-bio]").text
        assert buyer.find_element(By.CSS_SELECTOR, "[data-profile-photo]").get_property("naturalWidth") > 0
        buyer.get(plaza + "/market?q=bendy")
        card = next(item for item in buyer.find_elements(By.CSS_SELECTOR, "[data-feed] li") if title in item.text)
        navigate(buyer, card.find_element(By.TAG_NAME, "a"))

        # She asks about it in a chat; the seller's phone shows the message, with a warning about paying outside Plaza.
        navigate(buyer, buyer.find_element(By.CSS_SELECTOR, "form[action$='/interested'] button"))
        fill_in(buyer, "message-form", {"text": "Can I pick it up at 5? I could pay by Venmo."})
        click(buyer, buyer.find_element(By.CSS_SELECTOR, "#message-form button"))
        wait_for(buyer, lambda: "pick it up at 5" in buyer.find_element(By.ID, "chat").text,
                 explain=lambda: buyer.find_element(By.ID, "chat").text)
        assert not buyer.find_elements(By.CSS_SELECTOR, "[data-warning]"), "the sender sees no warning"
        seller.get(plaza + "/market/conversations")
        # The marketplace's Chat tab counts the conversation waiting for her.
        chats = lambda: "".join(badge.text for badge in seller.find_elements(By.CSS_SELECTOR, "[data-badge=chats]"))
        wait_for(seller, lambda: chats() == "1", explain=chats)
        row = next(item for item in seller.find_elements(By.CSS_SELECTOR, "[data-conversations] li") if title in item.text)
        assert "1" in row.find_element(By.CSS_SELECTOR, ".badge").text
        navigate(seller, row.find_element(By.TAG_NAME, "a"))
        # (The live region reloads as the page connects: read it afresh each time.)
        wait_for(seller, lambda: "outside Plaza" in seller.find_element(By.ID, "chat").text,
                 explain=lambda: seller.find_element(By.ID, "chat").text)
        wait_for(seller, lambda: seller.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
        wait_for(buyer, lambda: buyer.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "1")
        fill_in(seller, "message-form", {"text": "Yes, 5 at the library lobby works. Pay through Plaza please."})
        click(seller, seller.find_element(By.CSS_SELECTOR, "#message-form button"))
        # It arrives on the buyer's open conversation without reloading.
        wait_for(buyer, lambda: "library lobby works" in buyer.find_element(By.ID, "chat").text,
                 explain=lambda: buyer.find_element(By.ID, "chat").text)
        screenshot(seller, "market-chat")
        screenshot(buyer, "market-chat")
        navigate(seller, seller.find_element(By.CSS_SELECTOR, "a.listing-strip"))

        # The buyer could block the seller from here; she does, sees whom she blocked, and changes her mind.
        navigate(buyer, buyer.find_element(By.CSS_SELECTOR, "form[action^='/market/blocks/'] button"))
        assert "You blocked Carla" in notice(buyer)
        assert "Carla" in buyer.find_element(By.CSS_SELECTOR, "[data-blocks]").text
        submit(buyer, "Unblock")
        assert "Unblocked" in notice(buyer)

        # The seller marks it sold to the buyer: it leaves the feed.
        fill(seller, {"buyer": "dora"})
        submit(seller, "Mark as sold")
        assert "Marked sold" in notice(seller)
        buyer.get(plaza + "/market?q=bendy")
        assert title not in buyer.find_element(By.TAG_NAME, "main").text
    finally:
        seller.quit()
        buyer.quit()
