"""Every page a person reaches by links, for each role, at phone and desktop width, passes axe-core (WCAG 2.0, 2.1 and
2.2, A and AA) with no serious or critical violation (issue 41). Each role's pages are found by following links from
its home screen, one page per path pattern; the journeys' own tests reach the states behind forms."""
import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from accessibility import check, crawl, pattern
from conftest import SCREENSHOTS
from test_places_flow import log_in

ROLES = {
    "visitor": None,
    "customer": ("anna", "demo-anna-2026"),
    "merchant": ("bruno", "demo-bruno-2026"),
    "student": ("ella", "demo-ella-2026"),
    "designer": ("dana", "demo-dana-2026"),
    "admin": ("admin", "demo-admin-2026"),
}


# Path patterns checked at each width: a page another role reached already is walked through, not checked again.
CHECKED = {}


@pytest.mark.parametrize("role", list(ROLES))
def test_every_page_a_role_reaches_passes_axe(town, browser, role):
    if ROLES[role]:
        log_in(browser, town, *ROLES[role])
    pages = crawl(browser, town, checked=CHECKED.setdefault(browser.size_name, set()))
    # What was checked, for the record (the closing note counts it): role, width, page.
    os.makedirs(SCREENSHOTS, exist_ok=True)
    with open(os.path.join(SCREENSHOTS, "axe-pages.txt"), "a") as record:
        record.writelines(f"{role}\t{browser.size_name}\t{pattern(path)}\n" for path, _ in pages)
    failures = [f"{path}: {rule} ({impact}) at {targets}: {help}" for path, found in pages
                for rule, impact, targets, help in found]
    assert not failures, f"{len(failures)} serious or critical violations on {len(pages)} pages:\n" + "\n".join(failures)


# Forms sent empty (as a hurried person would): each page then shows its errors beside the fields, a state the crawl
# never reaches. (role, page); the page's first form with fields of its own is sent.
REFUSED = [
    ("visitor", "/signup"), ("visitor", "/login"), ("visitor", "/forgot-password"),
    ("customer", "/wallet/send"), ("customer", "/wallet/request"), ("customer", "/wallet/add-money"),
    ("customer", "/account"),
    ("merchant", "/places/new"),
    ("student", "/market/sell/new"),
    ("designer", "/cards/studio/new"),
]

SEND_EMPTY = """
    const form = [...document.querySelectorAll('main form')].find((f) =>
        [...f.elements].some((e) => e.name && e.name !== '_csrf' && e.type !== 'hidden' && !e.disabled));
    if (!form) return false;
    for (const e of form.elements) {
        if (e.type === 'checkbox' || e.type === 'radio' || e.type === 'hidden' || e.type === 'file' || e.tagName === 'BUTTON') continue;
        if (e.tagName === 'SELECT') continue;
        e.value = '';
    }
    form.noValidate = true;
    const button = [...form.querySelectorAll('button[type=submit], button:not([type]), input[type=submit]')][0];
    form.requestSubmit(button || undefined);
    return true;
"""


@pytest.mark.parametrize("role,path", REFUSED, ids=[f"{role}{path}" for role, path in REFUSED])
def test_a_form_with_errors_beside_its_fields_passes_axe(town, browser, role, path):
    driver = browser
    if ROLES[role]:
        log_in(driver, town, *ROLES[role])
    driver.get(town + path)
    assert driver.execute_script(SEND_EMPTY), f"{path} has no form to send"
    said = ".field-error:not([hidden]), .form-error, [role=alert]"
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, said))
    found = check(driver)
    assert not found, f"{path} with errors: " + "; ".join(f"{rule} ({impact}) at {targets}: {help}"
                                                       for rule, impact, targets, help in found)
