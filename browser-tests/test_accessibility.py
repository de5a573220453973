"""Every page a person reaches by links, for each role, at phone and desktop width, passes axe-core (WCAG 2.0, 2.1 and
2.2, A and AA) with no serious or critical violation (issue 41). Each role's pages are found by following links from
its home screen, one page per path pattern; the journeys' own tests reach the states behind forms."""
import pytest

from accessibility import crawl
from conftest import free_port, start_demo, stop
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


@pytest.fixture(scope="module")
def town():
    """A demo of its own: crawling follows every link a role sees, and leaves the shared demo's journeys alone."""
    port = free_port()
    server, workdir = start_demo(port)
    yield f"http://127.0.0.1:{port}"
    stop(server, workdir)


@pytest.mark.parametrize("role", list(ROLES))
def test_every_page_a_role_reaches_passes_axe(town, browser, role):
    if ROLES[role]:
        log_in(browser, town, *ROLES[role])
    pages = crawl(browser, town, checked=CHECKED.setdefault(browser.size_name, set()))
    failures = [f"{path}: {rule} ({impact}) at {targets}: {help}" for path, found in pages
                for rule, impact, targets, help in found]
    assert not failures, f"{len(failures)} serious or critical violations on {len(pages)} pages:\n" + "\n".join(failures)
