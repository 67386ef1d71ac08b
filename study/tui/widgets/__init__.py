"""Small display widgets; each owns only its rendering and posts messages up to its screen."""
