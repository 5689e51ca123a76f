"""Packs the driver extension folder (package.json, extension.js) as a .vsix code-server installs."""
import json
import sys
import zipfile
from pathlib import Path

folder, out = Path(sys.argv[1]), sys.argv[2]
manifest = json.loads((folder / "package.json").read_text())
with zipfile.ZipFile(out, "w") as z:
    z.writestr(
        "[Content_Types].xml",
        '<?xml version="1.0" encoding="utf-8"?><Types xmlns="http://schemas.openxmlformats.org/'
        'package/2006/content-types"><Default Extension=".json" ContentType="application/json"/>'
        '<Default Extension=".js" ContentType="application/javascript"/><Default Extension='
        '".vsixmanifest" ContentType="text/xml"/></Types>',
    )
    z.writestr(
        "extension.vsixmanifest",
        '<?xml version="1.0" encoding="utf-8"?><PackageManifest Version="2.0.0" xmlns="http://'
        'schemas.microsoft.com/developer/vsx-schema/2011"><Metadata><Identity Language="en-US" '
        f'Id="{manifest["name"]}" Version="{manifest["version"]}" Publisher="{manifest["publisher"]}"/>'
        f'<DisplayName>{manifest["name"]}</DisplayName><Description xml:space="preserve">'
        'Starts MCP servers and calls a tool</Description><Properties><Property Id="Microsoft.'
        f'VisualStudio.Code.Engine" Value="{manifest["engines"]["vscode"]}"/></Properties>'
        '</Metadata><Installation><InstallationTarget Id="Microsoft.VisualStudio.Code"/>'
        '</Installation><Dependencies/><Assets><Asset Type="Microsoft.VisualStudio.Code.Manifest" '
        'Path="extension/package.json" Addressable="true"/></Assets></PackageManifest>',
    )
    for name in ("package.json", "extension.js"):
        z.write(folder / name, f"extension/{name}")
