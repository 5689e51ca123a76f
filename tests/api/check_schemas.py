"""Every JSON file a built site publishes under api/ against the schema it publishes beside
it (api/<name>.schema.json), as a consumer of the data API would check it.

    python3 tests/api/check_schemas.py SITE_OUTPUT_DIR
"""
import json
import sys
from pathlib import Path

import jsonschema


def main(out: Path) -> int:
    api = out / "api"
    checked = 0
    failures = 0
    for schema_path in sorted(api.glob("*.schema.json")):
        data_path = api / schema_path.name.replace(".schema.json", ".json")
        schema = json.loads(schema_path.read_text())
        data = json.loads(data_path.read_text())
        validator = jsonschema.validators.validator_for(schema)(schema)
        errors = list(validator.iter_errors(data))
        for error in errors[:10]:
            where = "/".join(str(p) for p in error.absolute_path)
            print(f"{data_path}: at /{where}: {error.message[:200]}")
        failures += len(errors)
        checked += 1
        print(f"{data_path.name}: {len(errors)} errors against {schema_path.name}")
    if checked == 0:
        print(f"{api}: no api/*.schema.json found", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
