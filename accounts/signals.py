"""A superuser made by `make superuser` (Django's createsuperuser) may use the site at once:
the e-mail address they gave is recorded as verified and primary, as a sign-up's becomes once
its link is followed. Without it allauth's mandatory verification stopped them at log-in."""
from allauth.account.models import EmailAddress
from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.superuser_email_verified")
def superuser_email_verified(sender, instance, created, raw=False, **kwargs):
    if not created or raw or not instance.is_superuser or not instance.email:
        return
    EmailAddress.objects.update_or_create(
        user=instance, email__iexact=instance.email,
        defaults={"email": instance.email.lower(), "verified": True, "primary": True},
    )
