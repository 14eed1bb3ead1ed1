import RomdevCLI
