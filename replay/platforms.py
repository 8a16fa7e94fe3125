"""The platforms replay runs on, declared once: every module and surface names them from here."""

WEB = "web"
ANDROID = "android"
PLATFORMS = (WEB, ANDROID)
DEFAULT_PLATFORM = WEB  # a script with no `context platform=` line, a session opened without --platform
