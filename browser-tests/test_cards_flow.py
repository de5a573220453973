"""The card shop. A shopper at phone width browses Weddings signed out, logs in, personalizes a template (the preview
follows what is typed and every change is kept), reopens the saved design, puts a sample and 50 cards on linen in the
cart, approves the proof, pays with the test card and reads the confirmation. A designer uploads a template with its
art, sends it for review, an admin approves it, and it is in the catalogue."""
import os
import tempfile
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import new_browser, screenshot
from test_accounts_flow import click, fill, navigate, notice, submit
from test_market_deal_flow import sign_up, PASSWORD
from test_places_flow import log_in, wait_for

ART = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 133 183.8">
<rect x="0" y="0" width="133" height="183.8" fill="#f3ece1"/><circle cx="66.5" cy="50" r="22" fill="#c9a227"/></svg>"""


def preview_text(driver):
    return " ".join(t.text for t in driver.find_elements(By.CSS_SELECTOR, "[data-preview] text"))


def test_a_shopper_personalizes_saves_orders_and_pays(plaza):
    name = "shop" + uuid.uuid4().hex[:6]
    setup = new_browser("phone")
    try:
        sign_up(setup, plaza, name, "Sam Shopper")
    finally:
        setup.quit()
    shopper = new_browser("phone")
    try:
        # Signed out: the catalogue, the weddings, a template's page with its papers and prices.
        shopper.get(plaza + "/cards")
        assert "Wedding" in shopper.find_element(By.CSS_SELECTOR, "[data-categories]").text
        navigate(shopper, shopper.find_element(By.LINK_TEXT, "Wedding"))
        tiles = shopper.find_elements(By.CSS_SELECTOR, "[data-templates] li")
        assert tiles and all(tile.find_elements(By.CSS_SELECTOR, "svg text") for tile in tiles), "each tile shows the card with its text"
        screenshot(shopper, "cards-weddings")
        navigate(shopper, next(tile for tile in tiles if "Olive Sprig" in tile.text).find_element(By.TAG_NAME, "a"))
        assert "Linen" in shopper.find_element(By.CSS_SELECTOR, "[data-papers]").text
        screenshot(shopper, "cards-template")
        navigate(shopper, shopper.find_element(By.PARTIAL_LINK_TEXT, "Log in to personalize"))
        fill(shopper, {"login": name, "password": PASSWORD})
        submit(shopper, "Log in")
        assert "/cards/templates/" in shopper.current_url, "back on the template after logging in"
        submit(shopper, "Personalize this card")

        # The editor: what is typed shows in the preview, laid out by the server, and is kept.
        names = shopper.find_element(By.ID, "text-names")
        names.clear()
        names.send_keys("Carla & Dev")
        wait_for(shopper, lambda: "Carla & Dev" in preview_text(shopper), explain=lambda: preview_text(shopper))
        wait_for(shopper, lambda: "saved" in shopper.find_element(By.CSS_SELECTOR, "[data-save-status]").text)
        screenshot(shopper, "cards-editor")
        design = shopper.current_url.split("?")[0]

        # Reopened from the saved designs, the text is still there.
        shopper.get(plaza + "/cards/designs")
        row = next(item for item in shopper.find_elements(By.CSS_SELECTOR, "[data-designs] li") if "Olive Sprig" in item.text)
        assert "Carla & Dev" in row.text
        navigate(shopper, row.find_element(By.TAG_NAME, "a"))
        assert shopper.find_element(By.ID, "text-names").get_attribute("value") == "Carla & Dev"

        # A sample first, then 50 cards on linen.
        submit(shopper, "Order a sample first")
        assert "sample is in your cart" in notice(shopper)
        shopper.get(design)
        paper = Select(shopper.find_element(By.ID, "paper"))
        paper.select_by_visible_text(next(option.text for option in paper.options if option.text.startswith("Linen")))
        fill(shopper, {"quantity": "50"})
        submit(shopper, "Add to cart")
        lines = shopper.find_element(By.CSS_SELECTOR, "[data-cart]").text
        assert "50 cards on Linen" in lines and "1 sample on" in lines, lines
        screenshot(shopper, "cards-cart")

        # Checkout: the proof beside its print file, approved; the address; then paying by card.
        navigate(shopper, shopper.find_element(By.LINK_TEXT, "Check out"))
        assert shopper.find_elements(By.CSS_SELECTOR, "[data-proof] svg") and shopper.find_element(By.PARTIAL_LINK_TEXT, "print file")
        submit(shopper, "Place the order")
        assert shopper.find_element(By.CSS_SELECTOR, "[data-proof] .field-error").text.startswith("Look at this proof")
        for box in shopper.find_elements(By.CSS_SELECTOR, "input[type=checkbox][name^=approve-]"):
            click(shopper, box)
        fill(shopper, {"line1": "12 Elm Street", "postalCode": "80331", "city": "Munich", "country": "DE"})
        screenshot(shopper, "cards-checkout")
        submit(shopper, "Place the order")
        assert "pay for it" in notice(shopper)
        click(shopper, shopper.find_element(By.CSS_SELECTOR, "[data-card-choice]"))
        fill(shopper, {"number": "4242 4242 4242 4242", "expiry": "12/30", "cvc": "123"})
        total = shopper.find_element(By.CSS_SELECTOR, "[data-total]").text
        navigate(shopper, next(b for b in shopper.find_elements(By.TAG_NAME, "button") if b.text.startswith("Pay ")))
        wait_for(shopper, lambda: shopper.find_element(By.CSS_SELECTOR, "[data-order-status]").get_attribute("data-order-status") == "Paid",
                 seconds=20, explain=lambda: shopper.find_element(By.CSS_SELECTOR, "[data-order-status]").text)
        assert f"Paid {total} ✓" in shopper.find_element(By.CSS_SELECTOR, "[data-order-status]").text
        screenshot(shopper, "cards-paid")
        order = shopper.current_url.split("?")[0]

        # Paid, not printed yet: the design may still change, and its new proof be approved into the order.
        shopper.get(design)
        names = shopper.find_element(By.ID, "text-names")
        names.clear()
        names.send_keys("Carla & Devan")
        wait_for(shopper, lambda: "saved" in shopper.find_element(By.CSS_SELECTOR, "[data-save-status]").text)
        shopper.get(order)
        assert "changed since you approved it" in shopper.find_element(By.CSS_SELECTOR, "[data-changed-proof]").text
        submit(shopper, "Approve the new proof")
        assert "new proof is approved" in notice(shopper)
        assert not shopper.find_elements(By.CSS_SELECTOR, "[data-changed-proof]")
        shopper.get(plaza + "/cards/orders")
        assert "Paid" in shopper.find_element(By.CSS_SELECTOR, "[data-orders]").text
    finally:
        shopper.quit()


def test_a_designer_uploads_a_template_an_admin_approves_it(plaza):
    title = "Paper Moon " + uuid.uuid4().hex[:4]
    designer, admin = new_browser("desktop"), new_browser("desktop")
    folder = tempfile.mkdtemp()
    art = os.path.join(folder, "moon.svg")
    with open(art, "w") as file:
        file.write(ART)
    try:
        log_in(designer, plaza, "dana", "demo-dana-2026")
        designer.get(plaza + "/cards/studio")
        navigate(designer, designer.find_element(By.LINK_TEXT, "New template"))
        fill(designer, {"name": title, "colourName-0": "Gold"})
        designer.find_element(By.ID, "art-front-file-0").send_keys(art)
        wait_for(designer, lambda: "is ready" in designer.find_element(By.CSS_SELECTOR, "[data-art-status]").text,
                 explain=lambda: designer.find_element(By.CSS_SELECTOR, "[data-art-status]").text)
        submit(designer, "Save")
        assert "Saved" in notice(designer)
        assert designer.find_elements(By.CSS_SELECTOR, ".card-preview svg text")
        screenshot(designer, "cards-studio-template")
        submit(designer, "Send for review")
        assert "Sent for review" in notice(designer)

        log_in(admin, plaza, "admin", "demo-admin-2026")
        admin.get(plaza + "/admin")
        item = next(row for row in admin.find_elements(By.CSS_SELECTOR, "[data-review-item]") if title in row.text)
        navigate(admin, item.find_element(By.TAG_NAME, "a"))
        assert admin.find_element(By.CSS_SELECTOR, "[data-proof-link]")
        submit(admin, "Review this")
        screenshot(admin, "cards-admin-review")
        submit(admin, "Approve")
        admin.get(plaza + "/cards?q=" + title.split()[-1])
        assert title in admin.find_element(By.CSS_SELECTOR, "[data-templates]").text
    finally:
        designer.quit()
        admin.quit()
