"""Backups without a person: `plaza demo` with PLAZA_BACKUP_DIR copies its database at start; the admin, at phone
and desktop width, goes from the console's home to Backups and reads when the last copy was taken, its size and its
check, with the copy in the list and how to restore it."""
import os
import shutil
import tempfile
import time

import pytest
from selenium.webdriver.common.by import By

from conftest import free_port, new_browser, screenshot, start_demo, stop
from test_accounts_flow import navigate
from test_places_flow import log_in


@pytest.fixture(scope="module")
def backed_up():
    """`plaza demo` keeping copies in a folder of the test's own; yields (base URL, folder)."""
    folder = tempfile.mkdtemp(prefix="plaza-backups-")
    port = free_port()
    server, workdir = start_demo(port, {"PLAZA_BACKUP_DIR": folder, "PLAZA_BACKUP_EVERY": "6h", "PLAZA_BACKUP_KEEP": "3"})
    # The copy at start runs beside the server's start: wait for its file.
    for _ in range(100):
        if any(name.endswith(".sqlite") for name in os.listdir(folder)):
            break
        time.sleep(0.1)
    yield f"http://127.0.0.1:{port}", folder
    stop(server, workdir)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_admin_finds_the_last_backup_from_the_console(backed_up, size):
    base, folder = backed_up
    copies = sorted(name for name in os.listdir(folder) if name.startswith("plaza-") and name.endswith(".sqlite"))
    assert len(copies) == 1, copies
    driver = new_browser(size)
    try:
        log_in(driver, base, "admin", "demo-admin-2026")
        # The Admin entry of the navigation (the top link on phones, the side bar on desktops), then the console's tab.
        admin = next(link for link in driver.find_elements(By.CSS_SELECTOR, "a[href='/admin']") if link.is_displayed())
        navigate(driver, admin)
        tabs = driver.find_element(By.CSS_SELECTOR, "nav[aria-label='Admin console']")
        navigate(driver, tabs.find_element(By.LINK_TEXT, "Backups"))
        assert driver.current_url.endswith("/admin/backups")

        last = driver.find_element(By.CSS_SELECTOR, "[data-last-backup]")
        facts = {row.find_element(By.TAG_NAME, "dt").text: row.find_element(By.TAG_NAME, "dd").text
                 for row in last.find_elements(By.CSS_SELECTOR, "div")}
        assert facts["Check"] == "Checked: ok", facts
        assert facts["File"] == copies[0], facts
        assert facts["Size"].endswith(("KB", "MB")), facts
        assert facts["Last backup"], facts
        assert last.find_element(By.TAG_NAME, "time").get_attribute("datetime").startswith(time.strftime("%Y-", time.gmtime()))
        listed = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "[data-backup-list] [data-backup]")]
        assert len(listed) == 1 and copies[0] in listed[0], listed
        assert "every 6 hours" in driver.find_element(By.CSS_SELECTOR, "[data-backups-panel]").text
        assert "Stop Plaza" in driver.page_source
        assert driver.find_elements(By.CSS_SELECTOR, "[data-backup-failure]") == []
        screenshot(driver, "admin-backups")
    finally:
        driver.quit()
