from glossary.cli import main

main()
