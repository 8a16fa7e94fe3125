from replay.cli.fast import main

main()
