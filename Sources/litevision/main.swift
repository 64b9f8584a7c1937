print("litevision")
