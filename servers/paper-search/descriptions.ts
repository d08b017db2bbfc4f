// The tool descriptions of the reference paper_search server: FastMCP sends each tool's Python
// docstring unchanged (leading newline and indentation included), so these are those docstrings.
export const descriptions = {
  search_arxiv:
    '\n    Search academic papers from arXiv.\n    Args:\n      query (str): Search query text.\n      max_results (int): Maximum number of papers to return.\n\n    Returns:\n      papers (List[Dict]): Paper metadata as dictionaries.\n    ',
  search_pubmed:
    '\n    Search academic papers from PubMed.\n\n    Args:\n      query (str): Search query text.\n      max_results (int): Maximum number of papers to return.\n\n    Returns:\n      papers (List[Dict]): Paper metadata as dictionaries.\n    ',
  search_biorxiv:
    '\n    Search academic papers from bioRxiv.\n\n    Args:\n      query (str): Search query text.\n      max_results (int): Maximum number of papers to return.\n\n    Returns:\n      papers (List[Dict]): Paper metadata as dictionaries.\n    ',
  search_medrxiv:
    '\n    Search academic papers from medRxiv.\n\n    Args:\n      query (str): Search query text.\n      max_results (int): Maximum number of papers to return.\n\n    Returns:\n      papers (List[Dict]): Paper metadata as dictionaries.\n    ',
  search_google_scholar:
    '\n    Search academic papers from Google Scholar.\n\n    Args:\n      query (str): Search query text.\n      max_results (int): Maximum number of papers to return.\n\n    Returns:\n      papers (List[Dict]): Paper metadata as dictionaries.\n    ',
  search_iacr:
    '\n    Search academic papers from the IACR ePrint Archive.\n\n    Args:\n      query (str): Search query text.\n      max_results (int): Maximum number of papers to return.\n      fetch_details (bool): Whether to fetch detailed metadata.\n\n    Returns:\n      papers (List[Dict]): Paper metadata as dictionaries.\n    ',
  download_arxiv:
    '\n    Download the PDF of an arXiv paper.\n\n    Args:\n      paper_id (str): arXiv identifier.\n      save_path (str): Directory to save the PDF.\n\n    Returns:\n      path (str): File path of the downloaded PDF.\n    ',
  download_pubmed:
    '\n    Attempt to download the PDF of a PubMed paper.\n\n    Args:\n      paper_id (str): PubMed ID (PMID).\n      save_path (str): Directory to save the PDF.\n\n    Returns:\n      message (str): Status or explanation of download support.\n    ',
  download_biorxiv:
    '\n    Download the PDF of a bioRxiv paper.\n\n    Args:\n      paper_id (str): bioRxiv DOI.\n      save_path (str): Directory to save the PDF.\n\n    Returns:\n      path (str): File path of the downloaded PDF.\n    ',
  download_medrxiv:
    '\n    Download the PDF of a medRxiv paper.\n\n    Args:\n      paper_id (str): medRxiv DOI.\n      save_path (str): Directory to save the PDF.\n\n    Returns:\n      path (str): File path of the downloaded PDF.\n    ',
  download_iacr:
    '\n    Download the PDF of an IACR ePrint paper.\n\n    Args:\n      paper_id (str): IACR ePrint identifier.\n      save_path (str): Directory to save the PDF.\n\n    Returns:\n      path (str): File path of the downloaded PDF.\n    ',
  read_arxiv_paper:
    '\n    Read and extract text content from an arXiv paper PDF.\n\n    Args:\n      paper_id (str): arXiv identifier.\n      save_path (str): Directory where the PDF is or will be stored.\n\n    Returns:\n      text (str): Extracted plain text content.\n    ',
  read_pubmed_paper:
    '\n    Attempt to read and extract text from a PubMed paper.\n\n    Args:\n      paper_id (str): PubMed ID (PMID).\n      save_path (str): Directory path (may be unused).\n\n    Returns:\n      message (str): Status or explanation of read support.\n    ',
  read_biorxiv_paper:
    '\n    Read and extract text content from a bioRxiv paper PDF.\n\n    Args:\n      paper_id (str): bioRxiv DOI.\n      save_path (str): Directory where the PDF is or will be stored.\n\n    Returns:\n      text (str): Extracted plain text content.\n    ',
  read_medrxiv_paper:
    '\n    Read and extract text content from a medRxiv paper PDF.\n\n    Args:\n      paper_id (str): medRxiv DOI.\n      save_path (str): Directory where the PDF is or will be stored.\n\n    Returns:\n      text (str): Extracted plain text content.\n    ',
  read_iacr_paper:
    '\n    Read and extract text content from an IACR ePrint paper PDF.\n\n    Args:\n      paper_id (str): IACR ePrint identifier.\n      save_path (str): Directory where the PDF is or will be stored.\n\n    Returns:\n      text (str): Extracted plain text content.\n    ',
  search_semantic:
    '\n    Search academic papers from Semantic Scholar.\n\n    Args:\n      query (str): Search query text.\n      year (Optional[str]): Optional year filter expression.\n      max_results (int): Maximum number of papers to return.\n\n    Returns:\n      papers (List[Dict]): Paper metadata as dictionaries.\n    ',
  download_semantic:
    '\n    Download the PDF of a Semantic Scholar paper.\n\n    Args:\n      paper_id (str): Semantic Scholar paper identifier or alias (ID, DOI, ARXIV, etc.).\n      save_path (str): Directory to save the PDF.\n\n    Returns:\n      path (str): File path of the downloaded PDF.\n    ',
  read_semantic_paper:
    '\n    Read and extract text content from a Semantic Scholar paper.\n\n    Args:\n      paper_id (str): Semantic Scholar paper identifier or alias (ID, DOI, ARXIV, etc.).\n      save_path (str): Directory where the PDF is or will be stored.\n\n    Returns:\n      text (str): Extracted plain text content.\n    ',
  search_crossref:
    '\n    Search academic papers from the CrossRef database.\n\n    Args:\n      query (str): Search query text.\n      max_results (int): Maximum number of papers to return.\n      **kwargs: Optional CrossRef filter or sort parameters.\n\n    Returns:\n      papers (List[Dict]): Paper metadata as dictionaries.\n    ',
  get_crossref_paper_by_doi:
    '\n    Get a specific CrossRef record by DOI.\n\n    Args:\n      doi (str): Digital Object Identifier string.\n\n    Returns:\n      paper (Dict): Paper metadata dictionary or empty dict if not found.\n    ',
  download_crossref:
    '\n    Attempt to download the PDF of a CrossRef-referenced paper.\n\n    Args:\n      paper_id (str): CrossRef DOI.\n      save_path (str): Directory to save the PDF.\n\n    Returns:\n      message (str): Status or explanation of download support.\n    ',
  read_crossref_paper:
    '\n    Attempt to read and extract text content from a CrossRef-referenced paper.\n\n    Args:\n      paper_id (str): CrossRef DOI.\n      save_path (str): Directory where the PDF is or would be stored.\n\n    Returns:\n      message (str): Status or explanation of read support.\n    ',
} as const;

export type PaperToolName = keyof typeof descriptions;
