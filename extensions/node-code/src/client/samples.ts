// The code a new Code node starts with, per language (the node's defaults, loaded at start).
export type Language = 'javascript' | 'typescript' | 'python';

export const SAMPLES: Record<Language, string> = {
  javascript:
    "async function main({ params }) {\n  // params holds the inputs by name; return the outputs by name.\n  return { result: String(params.input ?? '') };\n}\n",
  typescript:
    "async function main({ params }: { params: Record<string, unknown> }) {\n  // params holds the inputs by name; return the outputs by name.\n  return { result: String(params.input ?? '') };\n}\n",
  python:
    'async def main(args):\n    params = args.params\n    # params holds the inputs by name; return the outputs by name.\n    return {"result": str(params.get("input", ""))}\n',
};
