"""Routes of the browser pages, at the site's root."""

from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import path
from django.views.generic import RedirectView

from web.views import accounts, chat, lobby, rematch, table

app_name = "web"

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    # Asked for by browsers on pages that name no icon of their own (the API's, the admin's).
    path("favicon.ico", RedirectView.as_view(url=static("web/favicon.ico"), permanent=True), name="favicon"),
    path("signup/", accounts.signup, name="signup"),
    path("login/", accounts.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("tokens/", accounts.tokens, name="tokens"),
    path("email/", accounts.email, name="email"),
    path("mine/", lobby.my_games, name="my-games"),
    path("mine/badge/", lobby.my_turns_badge, name="my-badge"),
    path("new/<str:kind>/", lobby.table_new, name="table-new"),
    path("rules/<str:kind>/", lobby.rules, name="rules"),
    path("games/<int:game_id>/", table.table, name="table"),
    path("games/<int:game_id>/live/", table.table_live, name="table-live"),
    path("games/<int:game_id>/stream/", table.table_stream, name="table-stream"),
    path("games/<int:game_id>/act/", table.table_act, name="table-act"),
    path("games/<int:game_id>/join/", lobby.table_join, name="table-join"),
    path("games/<int:game_id>/bot/", lobby.table_bot, name="table-bot"),
    path("games/<int:game_id>/leave/", lobby.table_leave, name="table-leave"),
    path("games/<int:game_id>/cancel/", lobby.table_cancel, name="table-cancel"),
    path("games/<int:game_id>/resign/", table.table_resign, name="table-resign"),
    path("games/<int:game_id>/next-hand/", table.table_next_hand, name="table-next-hand"),
    path("games/<int:game_id>/log/", table.table_log, name="table-log"),
    path("games/<int:game_id>/replay/<int:step>/", table.table_replay, name="table-replay"),
    path("games/<int:game_id>/review/", table.table_review, name="table-review"),
    path("games/<int:game_id>/chat/<str:room>/", chat.table_chat, name="table-chat"),
    path("games/<int:game_id>/chat/<str:room>/say/", chat.table_chat_say, name="table-chat-say"),
    path("chat/mute/<int:player_id>/", chat.chat_mute, name="chat-mute"),
    path("games/<int:game_id>/rematch/", rematch.table_rematch, name="table-rematch"),
    path("games/<int:game_id>/rematch/<str:what>/", rematch.table_rematch_answer, name="table-rematch-answer"),
]
