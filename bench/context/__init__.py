"""The context-economy benchmark (issue 15): scripted asrch and `rg -n` policies on tasks
over the running interpreter's standard library, scored by the bytes an agent reads."""
