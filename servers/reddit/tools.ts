// The reference reddit server's two tools (the reference project's servers/reddit_mcp.py) in its plain-text layouts:
// hot posts as blocks "- <title>\n  Score: s | Comments: c\n  Author: a\n  Link: https://reddit.com<permalink>\n"
// joined by newlines, a post as "**<title>**", Author, Score, Content and up to comment_limit
// top-level comments cut to 200 characters.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { registerKeyedTool } from '../shared/keyed-tool.js';
import { pythonStr } from '../shared/python-format.js';
import { errorResult, textResult } from '../shared/tool-result.js';
import { KEY_NAMES, redditGet } from './reddit-api.js';

type Thing = { kind?: string; data?: Record<string, unknown> };
type Listing = { data?: { children?: Thing[] } };

/** Python's `s[:n]` counts code points, not UTF-16 units. */
const firstCodePoints = (text: string, count: number): string => Array.from(text).slice(0, count).join('');

export function registerRedditTools(server: McpServer): void {
  registerKeyedTool(
    server,
    KEY_NAMES,
    {
      name: 'search_hot_posts',
      description:
        'Retrieve hot posts from a subreddit using the Reddit API.\nArgs:\n  subreddit (str): Subreddit name without the r/ prefix.\n  limit (int): Number of posts to retrieve.\nReturns:\n  result (str): Plain-text list of posts with title, score, comments, author, and link, or an error message.',
      shape: { subreddit: z.string().default('MachineLearning'), limit: z.number().int().default(5) },
    },
    async ({ subreddit, limit }) => {
      const answer = await redditGet<Listing>(`/r/${encodeURIComponent(subreddit)}/hot`, { limit, raw_json: 1 });
      if (answer.status !== 200 || !('body' in answer)) return errorResult(`Error: Reddit API returned ${answer.status}`);
      const blocks = (answer.body?.data?.children ?? []).map(({ data: post = {} }) =>
        [
          `- ${pythonStr(post.title)}`,
          `  Score: ${pythonStr(post.score)} | Comments: ${pythonStr(post.num_comments)}`,
          `  Author: ${pythonStr(post.author)}`,
          `  Link: https://reddit.com${pythonStr(post.permalink)}`,
          '',
        ].join('\n'),
      );
      return textResult(blocks.length > 0 ? blocks.join('\n') : 'No results found.');
    },
  );

  registerKeyedTool(
    server,
    KEY_NAMES,
    {
      name: 'get_post_content',
      description:
        'Retrieve a detailed Reddit post body with a limited set of comments.\nArgs:\n  post_id (str): Reddit post ID in base36 format.\n  comment_limit (int): Maximum number of top-level comments to fetch.\n  comment_depth (int): Maximum nesting level of comment threads.\nReturns:\n  result (str): Plain-text block with post metadata, content, and selected comments, or an error message.',
      shape: { post_id: z.string(), comment_limit: z.number().int().default(10), comment_depth: z.number().int().default(2) },
    },
    async ({ post_id, comment_limit, comment_depth }) => {
      const answer = await redditGet<Listing[]>(`/comments/${encodeURIComponent(post_id)}`, { limit: comment_limit, depth: comment_depth, raw_json: 1 });
      if (answer.status !== 200 || !('body' in answer)) return errorResult(`Error: Reddit API returned ${answer.status}`);
      const [postListing, commentListing] = Array.isArray(answer.body) ? answer.body : [];
      const post = postListing?.data?.children?.[0]?.data;
      if (!post || !commentListing) return textResult('No post data found.');
      const lines = [
        `**${pythonStr(post.title)}**`,
        `Author: ${pythonStr(post.author)}`,
        `Score: ${pythonStr(post.score)}`,
        `Content: ${post.selftext ? pythonStr(post.selftext) : '(no text)'}`,
        '\nComments:\n',
      ];
      for (const comment of (commentListing.data?.children ?? []).slice(0, Math.max(0, comment_limit))) {
        if (comment.kind === 't1') lines.push(`- ${pythonStr(comment.data?.author)}: ${firstCodePoints(pythonStr(comment.data?.body ?? ''), 200)}`);
      }
      return textResult(lines.join('\n'));
    },
  );
}
