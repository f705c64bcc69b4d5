"""Browser steps shared by the e2e tests."""
import re

from django.core import mail

PASSWORD = "tiles-and-rivers-42"


def sign_up(page, base_url: str, username: str) -> None:
    """Sign up through the pages and verify the e-mail address with the link that was sent."""
    page.goto(f"{base_url}/accounts/signup/")
    page.get_by_label("Username:").fill(username)
    page.get_by_label("Email:").fill(f"{username}@example.com")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again):").fill(PASSWORD)
    page.get_by_role("button", name="Sign Up").click()
    page.wait_for_url(re.compile(r"/accounts/confirm-email/"))
    message = next(m for m in reversed(mail.outbox) if m.to == [f"{username}@example.com"])
    page.goto(re.search(r"https?://\S+/accounts/confirm-email/\S+/", message.body).group(0))
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_url(re.compile(r"/games/$"))
