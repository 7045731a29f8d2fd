__version__ = '7.8.1'
