"""The admin's base classes: staff read play; they change it only through services.

Every admin of the site holds three rules (an outside review found each one broken):

- Filters: Django's admin filters a changelist by any lookup the query string names
  (``?seed__gte=…``), a yes/no oracle that gave a secret seed away in 63 requests. Here a lookup
  passes only on what the admin declares: its ``list_filter`` fields, its ``date_hierarchy``
  and its ``safe_lookups``.
- Secrets: a model's ``secret_fields`` (declared on its admin; any field named like
  ``SECRET_FIELD_NAMES`` counts too) are never shown, searched, sorted or filtered on, nor
  reached through a relation from another admin. Names that reach one are dropped at run time,
  and ``manage.py check`` reports them (``hexsite.admin.E001``) so the mistake is seen.
- Play models (``SiteModelAdmin``) are read-only: no add, change or delete, since play changes
  only through services (row locks, clocks, AI tasks). Staff act through admin actions that
  call those services; ``editable_fields`` may open a harmless column such as a title.
"""
from __future__ import annotations

from collections.abc import Iterable

from django.contrib import admin
from django.contrib.admin import widgets
from django.core import checks
from django.core.exceptions import FieldDoesNotExist
from django.db.models import F
from django.db.models.constants import LOOKUP_SEP

# Whatever model they are on, fields with these names are secret (a seed, a link that lets one
# in, a move that may be hidden): a future model cannot forget to declare them.
SECRET_FIELD_NAMES = frozenset({"seed", "invite_token", "payload"})

# The lookups Django's own list filters and date hierarchy put in the query string; on a
# declared (never secret) field they reveal nothing the filter does not already show.
FILTER_LOOKUPS = frozenset({"exact", "iexact", "in", "isnull", "isempty", "gt", "gte", "lt", "lte",
                            "year", "month", "day"})


def field_path(model, lookup: str) -> tuple[str, list[str]]:
    """Split ``lookup`` into the field path it filters on and the lookups after it.

    A relation followed by its target's key (``user__id``) is the relation itself, as Django's
    related-field filter writes it (``user__id__exact``).
    """
    parts = lookup.split(LOOKUP_SEP)
    path: list[str] = []
    relation = None
    for index, part in enumerate(parts):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return LOOKUP_SEP.join(path), parts[index:]
        if relation is not None and field in _target_fields(relation):
            return LOOKUP_SEP.join(path), parts[index + 1:]
        path.append(part)
        if not field.is_relation or field.related_model is None:
            return LOOKUP_SEP.join(path), parts[index + 1:]
        relation, model = field, field.related_model
    return LOOKUP_SEP.join(path), []


def _target_fields(relation) -> set:
    target = relation.related_model._meta
    return {target.pk, *(target.get_field(name) for name in getattr(relation, "to_fields", ()) if name)}


def _flatten(names: Iterable) -> list:
    flat = []
    for name in names or ():
        flat.extend(_flatten(name) if isinstance(name, (list, tuple)) else [name])
    return flat


def _order_names(expression) -> list[str]:
    """The field names an ordering (a name, ``-name``, or an expression) sorts by."""
    if isinstance(expression, str):
        return [expression.lstrip("-?")]
    if expression is None:
        return []
    nodes = expression.flatten() if hasattr(expression, "flatten") else [expression]
    return [node.name for node in nodes if isinstance(node, F)]


class SiteAdminMixin:
    """The filter and secret rules, for any ModelAdmin or inline (the user admin included)."""

    secret_fields: tuple[str, ...] = ()
    # Extra query-string lookups this admin accepts besides its list filters' own.
    safe_lookups: tuple[str, ...] = ()

    # -- What is secret -------------------------------------------------------------------
    def secrets_of(self, model) -> frozenset[str]:
        """The secret field names of ``model``: by name, and as its registered admin declares."""
        names = {f.name for f in model._meta.get_fields() if f.name in SECRET_FIELD_NAMES}
        if model is self.model:
            names.update(self.secret_fields)
        registered = self.admin_site._registry.get(model)
        names.update(getattr(registered, "secret_fields", ()))
        return frozenset(names)

    def reaches_secret(self, path: str) -> bool:
        """Does ``path`` (a field, a relation path, a lookup) touch a secret field on its way?"""
        model = self.model
        for part in path.split(LOOKUP_SEP):
            try:
                field = model._meta.get_field(part)
            except FieldDoesNotExist:
                return False  # a transform or lookup: what came before was not secret
            if part in self.secrets_of(model):
                return True
            if not field.is_relation or field.related_model is None:
                return False
            model = field.related_model
        return False

    def _column_reaches_secret(self, column) -> bool:
        """A list column is secret if it names a secret, or sorts by one (``?o=N``): its
        ``admin_order_field``, or the default ordering of the model a relation column shows."""
        if callable(column):
            return any(self.reaches_secret(name) for name in _order_names(getattr(column, "admin_order_field", None)))
        if self.reaches_secret(column):
            return True
        try:
            field = self.model._meta.get_field(column)
        except FieldDoesNotExist:
            attribute = getattr(self, column, None) or getattr(self.model, column, None)
            if isinstance(attribute, property):
                attribute = attribute.fget
            order = getattr(attribute, "admin_order_field", None)
            return any(self.reaches_secret(name) for name in _order_names(order))
        if field.is_relation and field.related_model is not None:
            ordering = field.related_model._meta.ordering or ()
            return any(self.reaches_secret(f"{column}{LOOKUP_SEP}{name}")
                       for item in ordering for name in _order_names(item))
        return False

    def _public(self, names) -> list:
        return [name for name in names if not self._column_reaches_secret(name)]

    # -- Never shown, searched, sorted ---------------------------------------------------
    def get_fields(self, request, obj=None):
        return self._public(super().get_fields(request, obj))

    def get_fieldsets(self, request, obj=None):
        return [(title, {**options, "fields": self._public_lines(options["fields"])})
                for title, options in super().get_fieldsets(request, obj)]

    def _public_lines(self, lines) -> list:
        kept = []
        for line in lines:
            if isinstance(line, (list, tuple)):
                line = self._public(line)
                if line:
                    kept.append(line)
            elif not self._column_reaches_secret(line):
                kept.append(line)
        return kept

    def get_readonly_fields(self, request, obj=None):
        return self._public(super().get_readonly_fields(request, obj))

    def get_exclude(self, request, obj=None):
        # A form never carries a secret, even one that is editable in the model (a payload).
        return [*(super().get_exclude(request, obj) or ()), *sorted(self.secrets_of(self.model))]

    def get_list_display(self, request):
        return self._public(super().get_list_display(request))

    def get_list_filter(self, request):
        return [item for item in super().get_list_filter(request)
                if not (self._filter_path(item) and self.reaches_secret(self._filter_path(item)))]

    def get_search_fields(self, request):
        return [name for name in super().get_search_fields(request) if not self.reaches_secret(name.lstrip("^=@"))]

    def get_ordering(self, request):
        return [item for item in super().get_ordering(request) or ()
                if not any(self.reaches_secret(name) for name in _order_names(item))]

    # -- Filtered only as declared ---------------------------------------------------------
    @staticmethod
    def _filter_path(item) -> str | None:
        """The field path of a ``list_filter`` entry; None for a custom SimpleListFilter."""
        if isinstance(item, str):
            return item
        if isinstance(item, (list, tuple)) and isinstance(item[0], str):
            return item[0]
        return None

    def lookup_allowed(self, lookup, value, request):
        """Only the lookups this admin declares; never one that reaches a secret."""
        if self.reaches_secret(lookup):
            return False
        list_filter = self.get_list_filter(request)
        if lookup in self.safe_lookups or lookup in self._simple_filter_parameters(list_filter):
            return True
        if self._raw_id_popup_lookup(lookup, value):
            return True
        path, lookups = field_path(self.model, lookup)
        if len(lookups) > 1 or (lookups and lookups[0] not in FILTER_LOOKUPS):
            return False
        declared = {self._filter_path(item) for item in list_filter} | {self.date_hierarchy}
        return path in declared - {None}

    @staticmethod
    def _simple_filter_parameters(list_filter) -> set[str]:
        return {item.parameter_name for item in list_filter
                if isinstance(item, type) and issubclass(item, admin.SimpleListFilter)}

    def _raw_id_popup_lookup(self, lookup, value) -> bool:
        # A raw-id popup filters its choices by the relation's limit_choices_to (Django's rule).
        for fk_lookup in self.model._meta.related_fkey_lookups:
            fk_lookup = fk_lookup() if callable(fk_lookup) else fk_lookup
            if (lookup, value) in widgets.url_params_from_lookup_dict(fk_lookup).items():
                return True
        return False

    def to_field_allowed(self, request, to_field):
        # A popup answers with the value of its `_to_field`: never a secret one.
        return not self.reaches_secret(to_field) and super().to_field_allowed(request, to_field)

    # -- Checked at start-up -----------------------------------------------------------------
    def check(self, **kwargs):
        return [*super().check(**kwargs), *self._check_secrets()]

    def _check_secrets(self) -> list[checks.CheckMessage]:
        errors = [
            checks.Error(f"secret_fields names {name!r}, which is not a field of {self.model._meta.label}.",
                         obj=self.__class__, id="hexsite.admin.E002")
            for name in self.secret_fields if not _has_field(self.model, name)
        ]
        for where, name in self._declared_names():
            shown = where in {"list_display", "fields", "fieldsets", "readonly_fields"}
            if self._column_reaches_secret(name) if shown else self.reaches_secret(name):
                errors.append(checks.Error(
                    f"{where} names {name!r}, which reaches a secret field.",
                    hint="Secret fields are never shown, searched, sorted or filtered on in the admin.",
                    obj=self.__class__, id="hexsite.admin.E001"))
        return errors

    def _declared_names(self):
        """(where, name) for every name this admin declares that could show or reach a field."""
        yield from (("list_display", n) for n in getattr(self, "list_display", ()) if n != "__str__")
        yield from (("list_filter", p) for p in map(self._filter_path, getattr(self, "list_filter", ())) if p)
        yield from (("search_fields", n.lstrip("^=@")) for n in getattr(self, "search_fields", ()))
        yield from (("ordering", n) for item in self.ordering or () for n in _order_names(item))
        yield from (("model ordering", n) for item in self.model._meta.ordering for n in _order_names(item))
        yield from (("fields", n) for n in _flatten(self.fields))
        yield from (("fieldsets", n) for _, options in self.fieldsets or ()
                    for n in _flatten(options.get("fields", ())))
        yield from (("readonly_fields", n) for n in self.readonly_fields)
        yield from (("date_hierarchy", n) for n in [getattr(self, "date_hierarchy", None)] if n)
        yield from (("safe_lookups", n) for n in self.safe_lookups)


def _model_fields(model) -> list[str]:
    return [f.name for f in model._meta.fields if not f.auto_created]


def _has_field(model, name: str) -> bool:
    try:
        model._meta.get_field(name)
    except FieldDoesNotExist:
        return False
    return True


class SiteModelAdmin(SiteAdminMixin, admin.ModelAdmin):
    """The admin of a play model: staff read it; play changes only through the services."""

    # Columns staff may edit because play never reads them (a game's title); saved alone.
    editable_fields: tuple[str, ...] = ()

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return bool(self.editable_fields) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return False

    def get_readonly_fields(self, request, obj=None):
        shown = [*_flatten(self.fields), *_model_fields(self.model), *self.readonly_fields]
        return self._public(name for name in dict.fromkeys(shown) if name not in self.editable_fields)

    def save_model(self, request, obj, form, change):
        # Only the editable columns: a full save would write back the play fields as they were
        # when the page loaded, undoing whatever a service changed meanwhile.
        obj.save(update_fields=self.editable_fields)


class ReadOnlyInline(SiteAdminMixin, admin.TabularInline):
    """Rows shown under their parent, never added, changed or deleted from there."""

    extra = 0
    can_delete = False

    def get_readonly_fields(self, request, obj=None):
        return self._public(_flatten(self.fields) or _model_fields(self.model))

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
