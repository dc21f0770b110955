from asrch.cli import main

raise SystemExit(main())
