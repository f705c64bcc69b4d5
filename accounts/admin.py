"""Users in the admin: staff edit them (staff status, the organiser permission, profiles), and
every admin of the site, Django's and allauth's too, filters only as it declares
(games.admin_base): no query-string lookup reaches a password hash or a game's secret."""
from allauth.account.admin import EmailAddressAdmin
from allauth.account.models import EmailAddress
from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.models import Group
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.admin_base import SiteAdminMixin


@admin.register(User)
class UserAdmin(SiteAdminMixin, BaseUserAdmin):
    fieldsets = BaseUserAdmin.fieldsets + (
        (_("Profile"), {"fields": ("display_name", "timezone", "email_notifications", "language")}),
    )
    list_display = ("username", "email", "display_name", "is_staff", "is_active", "date_joined")
    search_fields = ("username", "display_name", "first_name", "last_name", "email")
    # Facts of the account, not settings; read-only also spares the page Django's date picker,
    # whose inline styles the site's CSP refuses.
    readonly_fields = ("last_login", "date_joined")


# The same filter rule for the admins other apps register (their apps are listed first).
for model, base_admin in ((Group, GroupAdmin), (EmailAddress, EmailAddressAdmin)):
    admin.site.unregister(model)
    admin.site.register(model, type(base_admin.__name__, (SiteAdminMixin, base_admin), {}))
