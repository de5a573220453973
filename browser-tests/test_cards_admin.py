"""The card shop's console and catalogue filters. An admin at phone width opens Admin → Card shop, adds a category,
renames it, moves it up, adds a paper and changes its price (a mistake comes back to its row first). A shopper picks a
colour in the catalogue and sees only cards in it, drawn in that colour."""
import uuid

from selenium.webdriver.common.by import By

from conftest import new_browser, screenshot
from test_accounts_flow import click, navigate, notice, submit
from test_places_flow import log_in


def row(driver, selector, text):
    return next(item for item in driver.find_elements(By.CSS_SELECTOR, selector) if text in item.text)


def names(driver):
    return [item.find_element(By.TAG_NAME, "strong").text for item in driver.find_elements(By.CSS_SELECTOR, "[data-admin-categories] > li")]


def test_an_admin_renames_moves_and_reprices_from_the_console(plaza):
    tag = uuid.uuid4().hex[:4]
    admin = new_browser("phone")
    try:
        log_in(admin, plaza, "admin", "demo-admin-2026")
        admin.get(plaza + "/admin")
        navigate(admin, admin.find_element(By.LINK_TEXT, "Card shop"))
        field = admin.find_element(By.ID, "category-name")
        field.send_keys("Graduation " + tag)
        submit(admin, "Add")
        assert "Category added" in notice(admin)
        assert names(admin)[-1] == "Graduation " + tag

        # Renamed, then moved up one place.
        item = row(admin, "[data-admin-categories] > li", "Graduation " + tag)
        click(admin, item.find_element(By.TAG_NAME, "summary"))
        field = item.find_element(By.NAME, "name")
        field.clear()
        field.send_keys("Graduations " + tag)
        navigate(admin, item.find_element(By.XPATH, ".//button[normalize-space()='Save name']"))
        assert "Category saved" in notice(admin)
        before = names(admin)
        assert before[-1] == "Graduations " + tag
        item = row(admin, "[data-admin-categories] > li", "Graduations " + tag)
        navigate(admin, item.find_element(By.XPATH, ".//button[contains(., 'Up')]"))
        after = names(admin)
        assert after.index("Graduations " + tag) < before.index("Graduations " + tag), after
        screenshot(admin, "cards-admin-categories")

        # A new paper, then a typo in its price comes back to its own form, then the fix.
        paper = "Cotton " + tag
        for id, value in {"paper-name": paper, "paper-sample": "2.00", "paper-tiers": "1: 4.00, 25: 3.00"}.items():
            admin.find_element(By.ID, id).send_keys(value)
        submit(admin, "Add paper")
        assert "Paper saved" in notice(admin)
        item = row(admin, "[data-admin-papers] > li", paper)
        assert "$4.00" in item.text and "$3.00" in item.text
        click(admin, item.find_element(By.TAG_NAME, "summary"))
        tiers = item.find_element(By.NAME, "tiers")
        assert tiers.get_attribute("value") == "1: 4.00, 25: 3.00"
        tiers.clear()
        tiers.send_keys("1: four dollars")
        navigate(admin, item.find_element(By.XPATH, ".//button[normalize-space()='Save paper']"))
        item = row(admin, "[data-admin-papers] > li", paper)
        assert item.find_element(By.TAG_NAME, "details").get_attribute("open") is not None, "the refused form stays open"
        assert "Write each tier as quantity" in item.find_element(By.CSS_SELECTOR, ".field-error").text
        tiers = item.find_element(By.NAME, "tiers")
        tiers.clear()
        tiers.send_keys("1: 4.50, 25: 3.25")
        navigate(admin, item.find_element(By.XPATH, ".//button[normalize-space()='Save paper']"))
        assert "new prices apply" in notice(admin)
        assert "$4.50" in row(admin, "[data-admin-papers] > li", paper).text
        screenshot(admin, "cards-admin-papers")
    finally:
        admin.quit()


def test_a_shopper_filters_the_catalogue_by_colour(plaza):
    for size in ("phone", "desktop"):
        shopper = new_browser(size)
        try:
            shopper.get(plaza + "/cards")
            everything = len(shopper.find_elements(By.CSS_SELECTOR, "[data-templates] li"))
            colours = shopper.find_element(By.CSS_SELECTOR, "details.colour-filter")
            assert colours.text.startswith("Colour: any")
            if colours.get_attribute("open") is None:
                click(shopper, colours.find_element(By.TAG_NAME, "summary"))
            chips = shopper.find_elements(By.CSS_SELECTOR, "[data-colours] a")
            assert chips[0].text == "Any colour" and len(chips) > 2
            colour = chips[1].text
            navigate(shopper, chips[1])
            assert shopper.find_element(By.CSS_SELECTOR, "details.colour-filter summary").text == "Colour: " + colour
            assert colour in shopper.find_element(By.TAG_NAME, "h2").text
            tiles = shopper.find_elements(By.CSS_SELECTOR, "[data-templates] li")
            assert 0 < len(tiles) < everything
            screenshot(shopper, "cards-colour-" + size)
            # The tile opens the card in that colour.
            navigate(shopper, tiles[0].find_element(By.TAG_NAME, "a"))
            current = shopper.find_elements(By.CSS_SELECTOR, "[aria-current='true'], [aria-current='page']")
            assert any(colour.lower() == item.text.strip().lower() for item in current), [item.text for item in current]
        finally:
            shopper.quit()


def test_quick_look_shows_a_card_over_the_grid_and_orders_a_sample(plaza):
    from test_market_deal_flow import sign_up
    from selenium.webdriver.common.keys import Keys
    from test_places_flow import wait_for

    name = "look" + uuid.uuid4().hex[:6]
    shopper = new_browser("phone")
    try:
        # Signed out: the look shows the card, and logging in is the way to personalize it.
        shopper.get(plaza + "/cards")
        # A card in several colours (other tests may add one-colour templates at the front of the grid).
        # Not the demo's photo card: its sample waits for the shopper's photo, in the editor.
        tile = next(item for item in shopper.find_elements(By.CSS_SELECTOR, "[data-templates] li")
                    if " colours" in item.text and "Snapshot" not in item.text)
        title = tile.find_element(By.TAG_NAME, "strong").text
        click(shopper, tile.find_element(By.CSS_SELECTOR, "[data-quick-look]"))
        dialog = shopper.find_element(By.CSS_SELECTOR, "[data-quick-look-dialog]")
        wait_for(shopper, lambda: dialog.get_attribute("open") is not None)
        assert dialog.find_element(By.TAG_NAME, "h2").text == title
        assert dialog.find_elements(By.CSS_SELECTOR, ".card-page svg text"), "the card's pages with their text"
        assert "Log in to personalize it" in dialog.text
        screenshot(shopper, "cards-quick-look")
        # Another colour stays in the look, over the grid.
        other = next(chip for chip in dialog.find_elements(By.CSS_SELECTOR, "[data-quick-colour]") if chip.get_attribute("aria-current") is None)
        colour = other.text
        click(shopper, other)
        wait_for(shopper, lambda: dialog.find_element(By.CSS_SELECTOR, "[data-quick-colour][aria-current]").text == colour)
        assert dialog.get_attribute("open") is not None and shopper.current_url.endswith("/cards")
        dialog.send_keys(Keys.ESCAPE)
        wait_for(shopper, lambda: dialog.get_attribute("open") is None)

        sign_up(shopper, plaza, name, "Quinn Look")
        shopper.get(plaza + "/cards")
        tile = next(item for item in shopper.find_elements(By.CSS_SELECTOR, "[data-templates] li") if title in item.text)
        click(shopper, tile.find_element(By.CSS_SELECTOR, "[data-quick-look]"))
        dialog = shopper.find_element(By.CSS_SELECTOR, "[data-quick-look-dialog]")
        wait_for(shopper, lambda: dialog.get_attribute("open") is not None)
        sample = next(button for button in dialog.find_elements(By.TAG_NAME, "button") if button.text.startswith("Sample on"))
        paper = sample.text.split("Sample on ")[1].split(" ·")[0]
        navigate(shopper, sample)
        assert "A sample is in your cart" in notice(shopper)
        lines = shopper.find_element(By.TAG_NAME, "main").text
        assert title in lines and paper in lines, lines
    finally:
        shopper.quit()
