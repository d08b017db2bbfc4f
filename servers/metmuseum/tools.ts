// The tools of the `metmuseum-mcp` MCP server: the reference's three tools (servers/metmuseum-mcp/src/tools),
// same names, schemas and text layouts. get-museum-object returns the object's small primary
// image as image content (typed by its bytes, not always JPEG as the reference claimed) and saves
// it in the task's workspace. The reference also listed fetched images as MCP resources
// (met-image://<title>); no harness reads those, so this server does not offer them.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { workspaceOf } from '../shared/call-context.js';
import { saveDownload } from '../shared/download.js';
import { createHttpClient, type HttpClient } from '../shared/http-client.js';
import { errorResult, guarded, textResult } from '../shared/tool-result.js';
import { fetchDepartments, fetchImage, fetchObject, imageTypes, MetRequestError, searchObjects, type MetObject } from './collection.js';

/** The reference wrapped its own errors as `${prefix}: ${error}`, i.e. "…: Error: HTTP error! status: 404". */
async function referenceErrors(prefix: string, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  return guarded(async () => {
    try {
      return await body();
    } catch (error) {
      if (error instanceof MetRequestError) return errorResult(`${prefix}: Error: ${error.message}`);
      throw error;
    }
  });
}

function objectText(data: MetObject): string {
  const line = (label: string, value: string | undefined) => (value ? `${label}: ${value}\n` : '');
  return (
    `Title: ${data.title}\n` +
    line('Artist', data.artistDisplayName) +
    line('Artist Bio', data.artistDisplayBio) +
    line('Department', data.department) +
    line('Credit Line', data.creditLine) +
    line('Medium', data.medium) +
    line('Dimensions', data.dimensions) +
    line('Primary Image URL', data.primaryImage) +
    (data.tags ? `Tags: ${data.tags.map((tag) => tag.term).join(', ')}\n` : '')
  );
}

function registerObjectTool(server: McpServer, http: HttpClient): void {
  server.registerTool(
    'get-museum-object',
    {
      description:
        'Retrieve a Met Museum object by its numeric ID.\n\n  Args:\n    objectId (number): Museum object ID to retrieve.\n    returnImage (boolean, optional): Whether to include the object image.\n\n  Returns:\n    text+image: Text summary of object details and optional image content.',
      inputSchema: {
        objectId: z.number().describe('The ID of the museum object to retrieve'),
        returnImage: z.boolean().optional().default(true).describe('Whether to return the image (if available) of the object'),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ objectId, returnImage }, extra) =>
      referenceErrors(`Error getting museum object id ${objectId}`, async () => {
        const data = await fetchObject(http, objectId);
        const text = objectText(data);
        if (!returnImage || !data.primaryImageSmall) return textResult(text);
        const bytes = await fetchImage(http, data.primaryImageSmall);
        const saved = await saveDownload(workspaceOf(extra), `met-object-${objectId}`, bytes, imageTypes);
        return textResult(text, [{ data: bytes, mimeType: saved.mimeType }]);
      }),
  );
}

export function registerMetMuseumTools(server: McpServer): void {
  const http = createHttpClient({ server: 'metmuseum-mcp' });
  server.registerTool(
    'list-departments',
    {
      description:
        'List all departments in the Metropolitan Museum of Art.\n  Args:\n    None\n  Returns:\n    text (string): Department IDs and display names.',
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async () =>
      referenceErrors('Error listing departments', async () => {
        const departments = await fetchDepartments(http);
        return textResult(departments.map((department) => `Department ID: ${department.departmentId}, Display Name: ${department.displayName}`).join('\n'));
      }),
  );
  server.registerTool(
    'search-museum-objects',
    {
      description:
        'Search for Met Museum objects and return matching object IDs.\n\n  Args:\n    q (string): Search query text across object metadata.\n    hasImages (boolean, optional): Whether to require objects with images.\n    title (boolean, optional): Whether to search in object titles.\n    departmentId (number, optional): Restrict results to a department ID.\n\n  Returns:\n    text (string): Total matches and a comma-separated list of object IDs.',
      inputSchema: {
        q: z.string().describe("The search query, Returns a listing of all Object IDs for objects that contain the search query within the object's data"),
        hasImages: z.boolean().optional().default(false).describe('Only returns objects that have images'),
        title: z.boolean().optional().default(false).describe('This should be set to true if you want to search for objects by title'),
        departmentId: z
          .number()
          .optional()
          .describe("Returns objects that are in the specified department. The departmentId should come from the 'list-departments' tool."),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args) =>
      referenceErrors('Error searching museum objects', async () => {
        const found = await searchObjects(http, args);
        if (found.total === 0 || !found.objectIDs) return textResult('No objects found');
        return textResult(`Total objects found: ${found.total}\nObject IDs: ${found.objectIDs.join(', ')}`);
      }),
  );
  registerObjectTool(server, http);
}
