from django.contrib import admin

from bots.models import Bot, BotOnlyTable


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "difficulty", "topups", "created_at")
    list_filter = ("difficulty",)
    search_fields = ("user__username", "user__display_name")
    # Bots are created and funded by bots.services (top-ups are ledger transfers).
    readonly_fields = ("user", "topups", "created_at")


@admin.register(BotOnlyTable)
class BotOnlyTableAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("table", "created_at")
    readonly_fields = ("table", "created_at")
