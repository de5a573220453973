"""The card shop. A shopper at phone width browses Weddings signed out, logs in, personalizes a template (the preview
follows what is typed and every change is kept), reopens the saved design, puts a sample and 50 cards on linen in the
cart, approves the proof, pays with the test card and reads the confirmation. A designer uploads a template with its
art, places its label by dragging it on the card, sends it for review, an admin approves it, and it is in the catalogue.
On a phone, a designer adds, moves (by touch), edits and removes labels and edits them as JSON."""
import json
import os
import tempfile
import uuid

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import new_browser, screenshot
from test_accounts_flow import click, fill, navigate, notice, submit
from test_market_deal_flow import sign_up, PASSWORD
from test_places_flow import log_in, wait_for

ART = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 133 183.8">
<rect x="0" y="0" width="133" height="183.8" fill="#f3ece1"/><circle cx="66.5" cy="50" r="22" fill="#c9a227"/></svg>"""


def labels_json(driver):
    """The labels the form will save: the JSON the editor writes back (folded away, but still the form's field)."""
    return {label["id"]: label for label in json.loads(driver.find_element(By.ID, "t-labels").get_attribute("value"))}


def label_box(driver, label_id):
    return driver.find_element(By.CSS_SELECTOR, f".label-box[aria-label^='Label {label_id}:']")


def pixels_per_mm(driver):
    """The stage is the trim plus 3 mm of bleed a side (the 5 × 7 in card: 133 mm wide)."""
    return driver.find_element(By.CSS_SELECTOR, "[data-stage]").rect["width"] / 133


def snapped(value):
    return round(value * 2) / 2


def touch_screen(driver):
    """The phone's screen takes fingers (conftest already makes it 360 px wide)."""
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})


def touch_drag(driver, element, dx, dy):
    """A finger on `element`'s middle, moved by (dx, dy) pixels in a few steps, then lifted."""
    box = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]", element)
    x, y = round(box[0]), round(box[1])
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger)
    actions.pointer_action.move_to_location(x, y).pointer_down()
    for step in range(1, 5):
        actions.pointer_action.move_to_location(x + round(dx * step / 4), y + round(dy * step / 4))
    actions.pointer_action.pointer_up()
    actions.perform()


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
        assert "Added to your cart:" in notice(shopper) and "50 cards on Linen" in notice(shopper), notice(shopper)
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
        wait_for(shopper, lambda: shopper.find_element(By.CSS_SELECTOR, "[data-order-status]").get_attribute("data-order-status") == "paid",
                 seconds=20, explain=lambda: shopper.find_element(By.CSS_SELECTOR, "[data-order-status]").text)
        assert f"Paid {total} ✓" in shopper.find_element(By.CSS_SELECTOR, "[data-order-status]").text
        screenshot(shopper, "cards-paid")
        order = shopper.current_url.split("?")[0]

        # Paid, not printed yet: the design may still change, and its new proof be approved into the order.
        shopper.get(design)
        names = shopper.find_element(By.ID, "text-names")
        names.clear()
        names.send_keys("Carla & Devan")
        # Kept once the preview shows the whole name (an answer to an earlier keystroke also says "saved").
        wait_for(shopper, lambda: "Carla & Devan" in preview_text(shopper)
                 and "saved" in shopper.find_element(By.CSS_SELECTOR, "[data-save-status]").text,
                 explain=lambda: preview_text(shopper))
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
        # The label editor draws the front with the art just uploaded and the example label; the JSON folds away.
        wait_for(designer, lambda: designer.find_element(By.CSS_SELECTOR, "[data-stage-art]").is_displayed())
        assert not designer.find_element(By.ID, "t-labels").is_displayed()
        before = labels_json(designer)["names"]
        assert (before["x"], before["y"], before["width"], before["height"]) == (13.5, 70, 100, 25)
        # Drag the names 10 mm right and 40 mm down, then their bottom-right corner 20 mm in and 5 mm down.
        designer.execute_script("arguments[0].scrollIntoView()", designer.find_element(By.CSS_SELECTOR, "[data-label-editor]"))
        scale = pixels_per_mm(designer)
        dx, dy = round(10 * scale), round(40 * scale)
        box = label_box(designer, "names")
        ActionChains(designer).click_and_hold(box).move_by_offset(dx // 2, dy // 2).move_by_offset(dx - dx // 2, dy - dy // 2) \
            .release().perform()
        moved = labels_json(designer)["names"]
        assert abs(moved["x"] - snapped(13.5 + dx / scale)) <= 0.5 and abs(moved["y"] - snapped(70 + dy / scale)) <= 0.5, moved
        assert moved["x"] * 2 == int(moved["x"] * 2) and moved["y"] * 2 == int(moved["y"] * 2)
        assert designer.find_element(By.ID, "le-y").get_attribute("value") == str(moved["y"]).removesuffix(".0")
        handle = label_box(designer, "names").find_element(By.CSS_SELECTOR, "[data-corner=se]")
        ActionChains(designer).click_and_hold(handle).move_by_offset(round(-20 * scale), round(5 * scale)).release().perform()
        resized = labels_json(designer)["names"]
        assert (resized["x"], resized["y"]) == (moved["x"], moved["y"])
        assert abs(resized["width"] - 80) <= 0.5 and abs(resized["height"] - 30) <= 0.5, resized
        # Arrow keys nudge the focused label: 0.5 mm, 5 mm with Shift.
        ActionChains(designer).send_keys(Keys.ARROW_UP).key_down(Keys.SHIFT).send_keys(Keys.ARROW_LEFT).key_up(Keys.SHIFT).perform()
        nudged = labels_json(designer)["names"]
        assert (nudged["x"], nudged["y"]) == (moved["x"] - 5, moved["y"] - 0.5), nudged
        screenshot(designer, "cards-studio-editor")
        submit(designer, "Save")
        assert "Saved" in notice(designer)
        # Saved where it was dropped: the form's JSON, and the preview's text now sits 40 mm lower than the example's.
        saved = labels_json(designer)["names"]
        assert (saved["x"], saved["y"], saved["width"], saved["height"]) == (nudged["x"], nudged["y"], resized["width"], resized["height"])
        baseline = float(designer.find_element(By.CSS_SELECTOR, ".card-preview svg [data-label=names] tspan").get_attribute("y"))
        assert saved["y"] < baseline < saved["y"] + saved["height"], baseline
        assert baseline > 70 + 25
        screenshot(designer, "cards-studio-template")
        submit(designer, "Send for review")
        assert "Sent for review" in notice(designer)

        log_in(admin, plaza, "admin", "demo-admin-2026")
        admin.get(plaza + "/admin")
        item = next(row for row in admin.find_elements(By.CSS_SELECTOR, "[data-review-item]") if title in row.text)
        navigate(admin, item.find_element(By.TAG_NAME, "a"))
        assert admin.find_element(By.CSS_SELECTOR, "[data-proof-link]")
        submit(admin, "Review this")
        # The art as shoppers will see it, with its text twin, before the decision (issue 39).
        art = admin.find_element(By.CSS_SELECTOR, "[data-review-art]")
        assert art.find_elements(By.CSS_SELECTOR, "svg") and "Front, Gold" in art.text, art.text
        assert "The designer’s art" in art.text
        screenshot(admin, "cards-admin-review")
        submit(admin, "Approve")
        admin.get(plaza + "/cards?q=" + title.split()[-1])
        assert title in admin.find_element(By.CSS_SELECTOR, "[data-templates]").text
    finally:
        designer.quit()
        admin.quit()


def test_a_designer_places_labels_by_touch_on_a_phone(plaza):
    title = "Pocket Note " + uuid.uuid4().hex[:4]
    designer = new_browser("phone")
    touch_screen(designer)
    try:
        log_in(designer, plaza, "dana", "demo-dana-2026")
        designer.get(plaza + "/cards/studio/new")
        fill(designer, {"name": title, "colourName-0": "White"})
        stage = designer.find_element(By.CSS_SELECTOR, "[data-stage]")
        assert stage.rect["width"] <= 340 and stage.rect["x"] >= 0
        # Add a label: a unique id, centred on the page, and the panel shows it.
        click(designer, designer.find_element(By.CSS_SELECTOR, "[data-add-label]"))
        added = labels_json(designer)["label-1"]
        assert (added["page"], added["x"] + added["width"] / 2, added["width"]) == ("front", 63.5, 80)
        text = designer.find_element(By.ID, "le-text")
        text.clear()
        text.send_keys("Save the date")
        assert label_box(designer, "label-1").text == "Save the date"
        Select(designer.find_element(By.ID, "le-font")).select_by_visible_text("Sans")
        assert labels_json(designer)["label-1"]["fonts"] == ["serif", "sans"]
        # A finger drags it 30 mm up.
        scale = pixels_per_mm(designer)
        box = label_box(designer, "label-1")
        designer.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        touch_drag(designer, box, 0, round(-30 * scale))
        dragged = labels_json(designer)["label-1"]
        assert dragged["x"] == added["x"] and abs(dragged["y"] - (added["y"] - 30)) <= 0.5, dragged
        screenshot(designer, "cards-studio-editor")
        # The JSON by hand: the editor says when it does not parse, and follows when it does.
        click(designer, designer.find_element(By.CSS_SELECTOR, "[data-labels-json] summary"))
        area = designer.find_element(By.ID, "t-labels")
        area.send_keys(Keys.CONTROL, Keys.END, Keys.NULL, "]")
        status = designer.find_element(By.CSS_SELECTOR, "[data-json-status]")
        assert "does not parse" in status.text
        area.send_keys(Keys.BACKSPACE)
        assert status.text == ""
        edited = list(labels_json(designer).values())
        edited[1]["text"] = "Hold the date"
        area.clear()
        area.send_keys(json.dumps(edited))
        wait_for(designer, lambda: label_box(designer, "label-1").text == "Hold the date")
        # Remove the example label; put a new one inside.
        click(designer, label_box(designer, "names"))
        click(designer, designer.find_element(By.CSS_SELECTOR, "[data-remove-label]"))
        assert list(labels_json(designer)) == ["label-1"]
        click(designer, designer.find_element(By.CSS_SELECTOR, "[data-show-page=inside]"))
        assert not designer.find_elements(By.CSS_SELECTOR, ".label-box")
        click(designer, designer.find_element(By.CSS_SELECTOR, "[data-add-label]"))
        assert labels_json(designer)["label-1"]["page"] == "front" and labels_json(designer)["label-2"]["page"] == "inside"
        submit(designer, "Save")
        assert "Saved" in notice(designer)
        assert sorted(labels_json(designer)) == ["label-1", "label-2"]
        assert labels_json(designer)["label-1"]["text"] == "Hold the date"
        screenshot(designer, "cards-studio-saved")
    finally:
        designer.quit()


def live_note(driver, field):
    """The note the live preview put beside `field` (or "" while there is none); the fields redraw as they answer."""
    notes = driver.find_elements(By.CSS_SELECTOR, f"[data-live-refusal='{field}']")
    return notes[0].text if notes else ""


def test_a_shopper_moves_text_sizes_it_and_changes_the_cart_on_a_phone(plaza):
    """Issue 39: the phone's preview takes its width; a size past the largest is said beside the size, never as a
    false "empty"; the demo's Confetti Corners lets text move (by its fields: no dragging needed); the cart changes a
    quantity and credits a sample ordered beside its prints."""
    name = "move" + uuid.uuid4().hex[:6]
    shopper = new_browser("phone")
    try:
        sign_up(shopper, plaza, name, "Mo Mover")
        shopper.get(plaza + "/cards?q=corners")
        navigate(shopper, next(t for t in shopper.find_elements(By.CSS_SELECTOR, "[data-templates] li") if "Confetti Corners" in t.text)
                 .find_element(By.TAG_NAME, "a"))
        submit(shopper, "Personalize this card")

        # The card takes the phone's width while looking at it.
        card = shopper.find_element(By.CSS_SELECTOR, "[data-preview] svg")
        width = shopper.execute_script("return document.documentElement.clientWidth")
        assert card.rect["width"] >= 0.8 * width, (card.rect["width"], width)
        screenshot(shopper, "cards-editor-wide")

        # Emptied, then filled again with a size past the largest: the size says so, nothing says "empty".
        details = shopper.find_element(By.ID, "text-details")
        details.clear()
        wait_for(shopper, lambda: "is empty" in shopper.find_element(By.CSS_SELECTOR, "[data-findings]").text)
        details.send_keys("Maya turns 8")
        size = shopper.find_element(By.ID, "size-details")
        size.clear()
        size.send_keys("30")
        wait_for(shopper, lambda: live_note(shopper, "size-details") == "Pick a size from 9 to 14 pt.",
                 explain=lambda: live_note(shopper, "size-details"))
        assert size.get_attribute("aria-invalid") == "true"
        wait_for(shopper, lambda: "Maya turns 8" in preview_text(shopper), explain=lambda: preview_text(shopper))
        assert "is empty" not in shopper.find_element(By.CSS_SELECTOR, "[data-findings]").text
        screenshot(shopper, "cards-editor-size-refused")
        size.clear()
        size.send_keys("12")
        wait_for(shopper, lambda: not live_note(shopper, "size-details"))
        assert size.get_attribute("aria-invalid") is None

        # The title moves 20 mm down by its field; the preview draws it there and the move is kept.
        before = float(shopper.find_element(By.CSS_SELECTOR, "[data-preview] [data-label=title] tspan").get_attribute("y"))
        top = shopper.find_element(By.ID, "y-title")
        top.clear()
        top.send_keys("60")
        wait_for(shopper, lambda: abs(float(shopper.find_element(By.CSS_SELECTOR, "[data-preview] [data-label=title] tspan")
                                              .get_attribute("y")) - (before + 20)) < 0.01)
        wait_for(shopper, lambda: "saved" in shopper.find_element(By.CSS_SELECTOR, "[data-save-status]").text)
        shopper.refresh()
        assert shopper.find_element(By.ID, "y-title").get_attribute("value") == "60"

        # 20 cards, then a sample of the same card: the cart credits the sample; then 60 cards instead of 20.
        fill(shopper, {"quantity": "20"})
        submit(shopper, "Add to cart")
        design = shopper.find_element(By.CSS_SELECTOR, "[data-cart] a").get_attribute("href")
        shopper.get(design)
        submit(shopper, "Order a sample first")
        assert "comes off this order" in shopper.find_element(By.CSS_SELECTOR, "[data-credit-note]").text
        assert shopper.find_element(By.CSS_SELECTOR, "[data-sums]").text.count("Sample credit") == 1
        line = shopper.find_element(By.CSS_SELECTOR, "[data-quantity-form]")
        how_many = line.find_element(By.NAME, "quantity")
        how_many.clear()
        how_many.send_keys("60")
        navigate(shopper, line.find_element(By.TAG_NAME, "button"))
        assert "Changed: Confetti Corners is now 60 cards on" in notice(shopper), notice(shopper)
        assert shopper.find_element(By.CSS_SELECTOR, "[data-quantity-form] input[name=quantity]").get_attribute("value") == "60"
        screenshot(shopper, "cards-cart-quantity")
    finally:
        shopper.quit()


def test_a_designer_reads_their_sales_from_the_studio(plaza):
    for size in ("desktop", "phone"):
        designer = new_browser(size)
        try:
            log_in(designer, plaza, "dana", "demo-dana-2026")
            designer.get(plaza + "/cards/studio")
            navigate(designer, designer.find_element(By.CSS_SELECTOR, ".cards-nav a[href='/cards/studio/sales']"))
            rows = designer.find_elements(By.CSS_SELECTOR, "[data-sales] tbody tr")
            assert any("Olive Sprig" in row.text for row in rows), [row.text for row in rows]
            assert designer.find_element(By.CSS_SELECTOR, "[data-sales-summary]").text
            screenshot(designer, "cards-sales")
        finally:
            designer.quit()
