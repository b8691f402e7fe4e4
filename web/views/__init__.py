"""The pages' views: each reads through selectors or writes through one service, then renders a template."""
