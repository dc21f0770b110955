from asrch.entry import main

raise SystemExit(main())
