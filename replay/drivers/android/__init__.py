"""The Android backend: ``adb`` and ``uiautomator dump`` (SPEC §9). ``uix``: a dump as the tree."""
