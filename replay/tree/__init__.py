"""The UI tree: model, capture, refs, selector matching, materialization, identity evidence."""
