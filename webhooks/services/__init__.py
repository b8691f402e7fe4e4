"""The webhooks app's writers: endpoints, messages made from games' logs, delivery attempts."""
