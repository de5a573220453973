"""Photo cards (issue 40): a shopper opens the demo's photo template, adds a photo to its slot with the file field (no
script needed), moves and zooms it with the buttons beside it (each a form: the preview redraws where the photo went),
reads the low-resolution warning a small photo earns, and puts the card in the cart. At phone and desktop width: the
controls are never under the editor's pinned preview."""
import os
import struct
import tempfile
import uuid
import zlib

from selenium.webdriver.common.by import By

from conftest import screenshot
from test_accounts_flow import click, navigate, notice, submit
from test_market_deal_flow import sign_up


def blocks_png(width, height):
    """An RGB PNG of 25-pixel blocks in three colours, made here (no imaging library)."""
    colours = [b"\xdc\x1e\x1e", b"\x1e\xa0\x3c", b"\x1e\x1e\xdc"]
    rows = b"".join(
        b"\x00" + b"".join(colours[(x // 25 + y // 25) % 3] for x in range(width)) for y in range(height))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def photo_image(driver):
    """The photo in the preview: where its whole picture sits (mm), as the server drew it."""
    image = driver.find_element(By.CSS_SELECTOR, "[data-preview] svg[data-photo=your-photo] image")
    return {name: float(image.get_attribute(name)) for name in ["x", "y", "width", "height"]}


def press(driver, value):
    """Presses one of the photo's buttons, first checking nothing (the pinned preview) covers its middle."""
    button = driver.find_element(By.CSS_SELECTOR, f"#photo-your-photo button[name=action][value={value}]")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    covered = driver.execute_script("""
        const b = arguments[0], r = b.getBoundingClientRect();
        const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return top && (top === b || b.contains(top)) ? null : (top ? top.outerHTML.slice(0, 120) : "nothing");
    """, button)
    assert covered is None, f"the “{value}” button is covered by {covered}"
    navigate(driver, button)


def test_a_shopper_puts_a_photo_in_a_card_moves_and_zooms_it(plaza, browser):
    name = "photo" + uuid.uuid4().hex[:6]
    sign_up(browser, plaza, name, "Pia Photo")

    # From the catalogue: Wedding, the photo template, personalize.
    browser.get(plaza + "/cards")
    navigate(browser, browser.find_element(By.LINK_TEXT, "Wedding"))
    tile = next(tile for tile in browser.find_elements(By.CSS_SELECTOR, "[data-templates] li") if "Snapshot Thanks" in tile.text)
    navigate(browser, tile.find_element(By.TAG_NAME, "a"))
    submit(browser, "Personalize this card")
    design = browser.current_url.split("?")[0]

    # The empty slot asks for a photo, and the card cannot be ordered without it.
    slot = browser.find_element(By.ID, "photo-your-photo")
    assert "Add a photo" in slot.text
    assert "is empty" in browser.find_element(By.ID, "photo-finding-your-photo").text
    assert browser.find_element(By.CSS_SELECTOR, "[data-not-orderable]").is_displayed()
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-preview] svg[data-photo]")
    screenshot(browser, "cards-photo-empty")

    # A small photo (300 × 200 pixels over 103 mm): in the card, with the low-resolution warning beside the slot.
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "small.png")
    with open(path, "wb") as file:
        file.write(blocks_png(300, 200))
    browser.find_element(By.ID, "photo-file-your-photo").send_keys(path)
    submit(browser, "Upload the photo")
    assert "Your photo is in the card" in notice(browser), notice(browser)
    first = photo_image(browser)
    # Cover fit: 94 mm high from 200 pixels is 0.47 mm a pixel, so 141 mm wide, centred on the 103 mm slot.
    assert abs(first["height"] - 94) < 0.01 and abs(first["width"] - 141) < 0.01, first
    assert abs(first["x"] - (12 - 19)) < 0.01, first
    warning = browser.find_element(By.ID, "photo-finding-your-photo").text
    assert "54 dpi" in warning and "blurry" in warning, warning
    assert browser.find_element(By.CSS_SELECTOR, "[data-photo-zoom]").text == "100%"
    screenshot(browser, "cards-photo-added")

    # Moved left: the picture slides left (more of its right side shows); zoomed in: larger; moved up now it is taller.
    press(browser, "left")
    assert "The photo moved" in notice(browser)
    # Said beside the buttons too, with what the slot now shows (a phone has the card's preview above).
    assert "The photo moved" in browser.find_element(By.CSS_SELECTOR, "#photo-your-photo [data-photo-status]").text
    crop = browser.find_element(By.CSS_SELECTOR, "#photo-your-photo svg.photo-crop image")
    assert abs(float(crop.get_attribute("x")) - photo_image(browser)["x"]) < 0.01
    moved = photo_image(browser)
    assert moved["x"] < first["x"] - 4 and moved["y"] == first["y"], (first, moved)
    press(browser, "in")
    zoomed = photo_image(browser)
    assert zoomed["width"] > moved["width"] * 1.2 and browser.find_element(By.CSS_SELECTOR, "[data-photo-zoom]").text == "125%"
    press(browser, "up")
    up = photo_image(browser)
    assert up["y"] < zoomed["y"] - 2, (zoomed, up)
    press(browser, "right")
    assert photo_image(browser)["x"] > up["x"]
    # At zoom 100% the photo just fills the slot's height: moving it down says it is at the edge.
    press(browser, "out")
    press(browser, "down")
    assert "already reaches the slot's edge" in notice(browser), notice(browser)
    assert "dpi" in browser.find_element(By.ID, "photo-finding-your-photo").text
    screenshot(browser, "cards-photo-moved")

    # Only a warning: the card may be ordered.
    assert not browser.find_element(By.CSS_SELECTOR, "[data-not-orderable]").is_displayed()
    submit(browser, "Add to cart")
    assert "Added to your cart" in notice(browser), notice(browser)
    assert "Snapshot Thanks" in browser.find_element(By.CSS_SELECTOR, "[data-cart]").text
    browser.get(design)
    assert browser.find_elements(By.CSS_SELECTOR, "[data-preview] svg[data-photo=your-photo] image")
