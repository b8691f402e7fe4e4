"""The browser pages: sign-up, lobby, my games, the table, its log and replay. Server-rendered with htmx; every
read goes through games' and players' selectors and every write through their services, as the API's do."""
